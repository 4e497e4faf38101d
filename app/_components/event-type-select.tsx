'use client';
import { Select } from '@/app/_components/ui';
import { EVENT_TYPE_NAMES } from '@/server/client-safe/event-catalog';

const TYPES = [...EVENT_TYPE_NAMES];
const FAMILIES = [...new Set(TYPES.map((t) => `${t.split('.')[0]}.*`))];

/**
 * A filter by event type: one of the catalog's families (`booking.*`) or types, or none (''). A
 * value the catalog does not list (from a shared URL) stays selectable. Goes inside a Field.
 */
export function EventTypeSelect({
  value,
  onChange,
  noneLabel,
}: {
  value: string | undefined;
  onChange: (next: string) => void;
  noneLabel: string;
}) {
  const options = (names: string[]) =>
    names.map((name) => (
      <option key={name} value={name}>
        {name}
      </option>
    ));
  return (
    <Select value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
      <option value="">{noneLabel}</option>
      {value && ![...FAMILIES, ...TYPES].includes(value) && <option value={value}>{value}</option>}
      <optgroup label="Families">{options(FAMILIES)}</optgroup>
      <optgroup label="Types">{options(TYPES)}</optgroup>
    </Select>
  );
}
