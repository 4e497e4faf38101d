/** A dashboard table's header row; `hidden` names a last column (row actions) for screen readers only. */
export function TableHead({ columns, hidden }: { columns: string[]; hidden?: string }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
        {hidden && (
          <th scope="col">
            <span className="visually-hidden">{hidden}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
