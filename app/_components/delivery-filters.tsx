'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { EventTypeSelect } from '@/app/_components/event-type-select';
import { Button, Field, Input, Select } from '@/app/_components/ui';
import { DELIVERY_STATUSES, RESPONSE_CLASSES } from '@/server/client-safe/statuses';

const KEYS = [
  'status',
  'event_type',
  'response_status',
  'object_id',
  'created_after',
  'created_before',
  'endpoint_id',
] as const;
type Key = (typeof KEYS)[number];

export interface DeliveryFilterInput {
  status?: (typeof DELIVERY_STATUSES)[number];
  event_type?: string;
  response_status?: (typeof RESPONSE_CLASSES)[number];
  object_id?: string;
  created_after?: string;
  created_before?: string;
  /** The endpoint chosen on the list across endpoints. */
  endpoint_id?: string;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;

/** The filters in the URL, as the procedure's input (unknown status values are ignored). */
export function useDeliveryFilters(): { filters: DeliveryFilterInput; active: number } {
  const params = useSearchParams();
  const text = (key: Key) => params.get(key) || undefined;
  const filters: DeliveryFilterInput = {
    status: oneOf(DELIVERY_STATUSES, params.get('status')),
    event_type: text('event_type'),
    response_status: oneOf(RESPONSE_CLASSES, params.get('response_status')),
    object_id: text('object_id'),
    created_after: text('created_after'),
    created_before: text('created_before'),
    endpoint_id: text('endpoint_id'),
  };
  const defined = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
  return { filters: defined, active: Object.keys(defined).length };
}

/** `2026-11-23T14:05` in the browser's zone ⇄ an RFC 3339 UTC timestamp. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function DeliveryFilterBar({
  endpoints,
  hide = [],
}: {
  /** The endpoint choice, for the list across endpoints. */
  endpoints?: { id: string; url: string }[];
  /** Filters this list fixes itself (e.g. status on "Failed deliveries"). */
  hide?: Key[];
}) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { filters, active } = useDeliveryFilters();
  // Free text is applied on submit (Enter or Apply); selects apply at once.
  const [objectId, setObjectId] = useState(filters.object_id ?? '');
  const [after, setAfter] = useState(toLocalInput(filters.created_after));
  const [before, setBefore] = useState(toLocalInput(filters.created_before));

  const apply = (changes: Partial<Record<Key, string | undefined>>) => {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    next.delete('delivery'); // an open delivery of the old list
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({
      object_id: objectId.trim() || undefined,
      created_after: fromLocalInput(after),
      created_before: fromLocalInput(before),
    });
  };
  const clear = () => {
    setObjectId('');
    setAfter('');
    setBefore('');
    apply(Object.fromEntries(KEYS.filter((k) => !hide.includes(k)).map((k) => [k, undefined])));
  };
  const shown = (key: Key) => !hide.includes(key);

  return (
    <form
      onSubmit={submit}
      aria-label="Filter deliveries"
      className="mb-3 grid grid-cols-2 gap-3 rounded-card border border-border bg-panel p-3 lg:grid-cols-4"
    >
      {shown('status') && (
        <Field label="Status">
          <Select value={filters.status ?? ''} onChange={(e) => apply({ status: e.target.value })}>
            <option value="">Any</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {shown('event_type') && (
        <Field label="Event type">
          <EventTypeSelect
            value={filters.event_type}
            onChange={(next) => apply({ event_type: next })}
            noneLabel="Any"
          />
        </Field>
      )}
      {shown('response_status') && (
        <Field label="Response">
          <Select
            value={filters.response_status ?? ''}
            onChange={(e) => apply({ response_status: e.target.value })}
          >
            <option value="">Any</option>
            {RESPONSE_CLASSES.map((c) => (
              <option key={c} value={c}>
                {c === 'none' ? 'no response' : c}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {endpoints && shown('endpoint_id') && (
        <Field label="Endpoint" className="col-span-2 lg:col-span-1">
          <Select value={filters.endpoint_id ?? ''} onChange={(e) => apply({ endpoint_id: e.target.value })}>
            <option value="">Any</option>
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.url}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {shown('object_id') && (
        <Field label="Object id" hint="e.g. a booking id" className="col-span-2 lg:col-span-1">
          <Input value={objectId} onChange={(e) => setObjectId(e.target.value)} placeholder="bkg_…" />
        </Field>
      )}
      {shown('created_after') && (
        <Field label="Created after" className="col-span-2 sm:col-span-1">
          <Input type="datetime-local" value={after} onChange={(e) => setAfter(e.target.value)} />
        </Field>
      )}
      {shown('created_before') && (
        <Field label="Created before" className="col-span-2 sm:col-span-1">
          <Input type="datetime-local" value={before} onChange={(e) => setBefore(e.target.value)} />
        </Field>
      )}
      <div className="flex items-end gap-2">
        <Button type="submit" variant="secondary">
          Apply
        </Button>
        {active > 0 && (
          <Button type="button" variant="ghost" onClick={clear}>
            Clear filters
          </Button>
        )}
      </div>
    </form>
  );
}
