'use client';
/**
 * The dashboard's list states and shared bits built on the kit: loading/failed/empty/rows,
 * "Load more" under cursor-paginated lists, a secret shown once, and time formatting.
 */
import type { ReactNode } from 'react';
import { Button, Code, CopyButton, ErrorNotice, Notice, Spinner } from '@/app/_components/ui';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="flex items-center gap-2 py-2 text-muted" aria-live="polite">
      <Spinner />
      {label}
    </p>
  );
}

/**
 * The states every list of the dashboard goes through: loading, failed, empty, or its rows.
 * `children` gets the rows, and runs only once they exist.
 */
export function QueryState<T>(props: {
  query: { isPending: boolean; error: unknown };
  rows: T[] | undefined;
  empty: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  if (props.query.isPending) return <Loading />;
  if (props.query.error) return <ErrorNotice error={props.query.error} />;
  if (!props.rows?.length) return props.empty;
  return props.children(props.rows);
}

/** A secret that is shown once, with a copy button. */
export function SecretOnce({
  label,
  value,
  onDone,
  note = 'copy it now: it will not be shown again.',
  testId = 'secret-value',
}: {
  label: string;
  value: string;
  onDone: () => void;
  /** What to do with it (after the label). */
  note?: ReactNode;
  testId?: string;
}) {
  return (
    <section aria-label={label} className="mb-4">
      <Notice tone="warn" className="flex flex-col gap-2 px-4 py-3">
        <p>
          <strong>{label}</strong> — {note}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <Code
            data-testid={testId}
            className="max-w-full border border-border bg-panel px-2 py-1 break-all text-fg"
          >
            {value}
          </Code>
          <CopyButton value={value} size="sm" />
          <Button variant="secondary" size="sm" onClick={onDone}>
            Done
          </Button>
        </div>
      </Notice>
    </section>
  );
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/**
 * A timestamp for tables: the date and the time each stay whole, but may sit on two lines so a
 * narrow column does not force the table wider.
 */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="text-muted">—</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={formatTime(value)}>
      <span className="whitespace-nowrap">{date.toLocaleDateString(undefined, { dateStyle: 'medium' })}</span>{' '}
      <span className="whitespace-nowrap">{date.toLocaleTimeString(undefined, { timeStyle: 'medium' })}</span>
    </time>
  );
}

/** "Load more" under a cursor-paginated list (docs/decisions.md "General": cursors), driven by its infinite query. */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  if (!query.hasNextPage) return null;
  return (
    <div className="mt-3 flex justify-center">
      <Button
        variant="secondary"
        loading={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      >
        Load more
      </Button>
    </div>
  );
}
