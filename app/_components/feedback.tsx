'use client';
import { type ReactNode, useEffect, useState } from 'react';

/** Turns a tRPC error into one readable sentence plus the field problems, if any. */
export function errorMessage(error: unknown): string {
  const e = error as {
    message?: string;
    data?: { fieldErrors?: { path: string; message: string }[] | null };
  } | null;
  const fields = e?.data?.fieldErrors;
  if (fields?.length) return fields.map((f) => `${f.path}: ${f.message}`).join('; ');
  return e?.message || 'Something went wrong';
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="note note-error" role="alert">
      {errorMessage(error)}
    </p>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="muted" aria-live="polite">
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
  if (props.query.error) return <ErrorNote error={props.query.error} />;
  if (!props.rows?.length) return props.empty;
  return props.children(props.rows);
}

/** A short-lived success message, announced to screen readers. */
export function useFlash(): [ReactNode, (message: string) => void] {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), 5000);
    return () => clearTimeout(timer);
  }, [message]);
  const node = (
    <p className="note note-success" role="status" aria-live="polite" hidden={!message}>
      {message}
    </p>
  );
  return [node, setMessage];
}

/** A secret that is shown once, with a copy button. */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="secret" aria-label={label}>
      <p>
        <strong>{label}</strong> — copy it now: it will not be shown again.
      </p>
      <div className="secret-row">
        <code data-testid="secret-value">{value}</code>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(value);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** "Load more" under a cursor-paginated list (CONTRACT §1 pagination), driven by its infinite query. */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  if (!query.hasNextPage) return null;
  return (
    <div className="row" style={{ justifyContent: 'center', marginTop: '0.75rem' }}>
      <button
        type="button"
        className="secondary"
        disabled={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      >
        {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
