'use client';

/** The "Status" filter of the dashboard's lists: a labelled select over a fixed set of values. */
export function StatusSelect<T extends string>(props: {
  id: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  format?: (value: T) => string;
}) {
  return (
    <>
      <label htmlFor={props.id} style={{ margin: 0 }}>
        Status
      </label>
      <select
        id={props.id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as T)}
        style={{ width: 'auto' }}
      >
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.format ? props.format(option) : option}
          </option>
        ))}
      </select>
    </>
  );
}
