'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorNote, formatTime, QueryState, SecretOnce, useFlash } from '@/app/_components/feedback';
import { TableHead } from '@/app/_components/table-head';
import { useTRPC } from '@/app/_components/trpc';

export function ApiKeysView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions({}));
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [flash, setFlash] = useFlash();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });

  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (key) => {
        setSecret({ label: `New API key “${key.name}”`, value: key.key });
        setFlash(`Created API key ${key.prefix}`);
        void refresh();
      },
    }),
  );
  const rotate = useMutation(
    trpc.apiKeys.rotate.mutationOptions({
      onSuccess: (key) => {
        setSecret({ label: `Rotated API key “${key.name}”`, value: key.key });
        setFlash(`Rotated: the old key stops at ${formatTime(key.replaced_key.revokes_at)}`);
        void refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: () => {
        setFlash('API key revoked');
        void refresh();
      },
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    create.mutate({ name: String(data.get('name') ?? '') }, { onSuccess: () => form.reset() });
  }

  return (
    <>
      <div className="page-head">
        <div>
          <h1>API keys</h1>
          <p className="muted">
            Keys authenticate server-to-server calls to the REST API. Only their prefix is stored in readable
            form.
          </p>
        </div>
      </div>
      {flash}
      {secret && <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}

      <form className="panel row" onSubmit={submit} aria-label="Create an API key">
        <div style={{ flex: 1, minWidth: 240 }}>
          <label htmlFor="key-name">Name</label>
          <input
            id="key-name"
            name="name"
            type="text"
            placeholder="e.g. Booking widget"
            required
            maxLength={100}
          />
        </div>
        <button type="submit" disabled={create.isPending} style={{ alignSelf: 'flex-end' }}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </form>
      <ErrorNote error={create.error ?? rotate.error ?? revoke.error} />

      <QueryState query={keys} rows={keys.data?.data} empty={<p className="empty">No API keys yet.</p>}>
        {(items) => (
          <table>
            <caption className="muted" style={{ textAlign: 'left', padding: '0.5rem 0' }}>
              Usable keys
            </caption>
            <TableHead columns={['Name', 'Prefix', 'Created', 'Last used', 'Expires']} hidden="Actions" />
            <tbody>
              {items.map((key) => (
                <tr key={key.id} data-testid={`api-key-${key.prefix}`}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>{formatTime(key.created_at)}</td>
                  <td>
                    {key.last_used_at ? formatTime(key.last_used_at) : <span className="muted">never</span>}
                  </td>
                  <td>
                    {key.revokes_at ? (
                      <span className="badge badge-pending">stops {formatTime(key.revokes_at)}</span>
                    ) : (
                      formatTime(key.expires_at)
                    )}
                  </td>
                  <td className="actions">
                    <RotateControl
                      disabled={rotate.isPending || Boolean(key.revokes_at)}
                      onRotate={(grace) => rotate.mutate({ id: key.id, grace_seconds: grace })}
                    />
                    <button
                      type="button"
                      className="small danger"
                      disabled={revoke.isPending}
                      onClick={() => {
                        if (
                          window.confirm(`Revoke “${key.name}” (${key.prefix})? Calls using it fail at once.`)
                        ) {
                          revoke.mutate({ id: key.id });
                        }
                      }}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}

const GRACE_CHOICES = [
  { seconds: 0, label: 'old key: stop now' },
  { seconds: 3600, label: 'old key: 1 h grace' },
  { seconds: 86_400, label: 'old key: 24 h grace' },
];

/** Rotation with an optional grace period for the old key (≤ 24 h, CONTRACT §2). */
function RotateControl({
  disabled,
  onRotate,
}: {
  disabled: boolean;
  onRotate: (graceSeconds: number) => void;
}) {
  const [grace, setGrace] = useState(0);
  return (
    <span className="field-inline" style={{ display: 'inline-flex' }}>
      <select
        aria-label="Old key stops"
        value={grace}
        onChange={(e) => setGrace(Number(e.target.value))}
        style={{ width: 'auto', padding: '0.2rem 0.4rem' }}
      >
        {GRACE_CHOICES.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {c.label}
          </option>
        ))}
      </select>
      <button type="button" className="small secondary" disabled={disabled} onClick={() => onRotate(grace)}>
        Rotate
      </button>
    </span>
  );
}
