'use client';
import { Select } from '@/app/_components/ui';

/** The "Status" filter of the dashboard's lists: a labelled select over a fixed set of values. */
export function StatusSelect<T extends string>(props: {
  id: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  format?: (value: T) => string;
}) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={props.id} className="text-sm font-semibold">
        Status
      </label>
      <Select inline id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value as T)}>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.format ? props.format(option) : option}
          </option>
        ))}
      </Select>
    </div>
  );
}
