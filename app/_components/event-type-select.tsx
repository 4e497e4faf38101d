'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/app/_components/trpc';
import { Select } from '@/app/_components/ui';

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
  const trpc = useTRPC();
  // The catalog changes only with a deploy.
  const catalog = useQuery({ ...trpc.eventTypes.list.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  const types = catalog.data?.types.map((t) => t.type) ?? [];
  const families = [...new Set(types.map((t) => `${t.split('.')[0]}.*`))];
  const options = (names: string[]) =>
    names.map((name) => (
      <option key={name} value={name}>
        {name}
      </option>
    ));
  return (
    <Select value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
      <option value="">{noneLabel}</option>
      {value && ![...families, ...types].includes(value) && <option value={value}>{value}</option>}
      <optgroup label="Families">{options(families)}</optgroup>
      <optgroup label="Types">{options(types)}</optgroup>
    </Select>
  );
}
