'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { ErrorNote, QueryState, SecretOnce, useFlash } from '@/app/_components/feedback';
import { TableHead } from '@/app/_components/table-head';
import { useTRPC } from '@/app/_components/trpc';
import { EndpointForm } from './endpoint-form';
import { FailedDeliveries } from './failed-deliveries';

type Tab = 'endpoints' | 'failed';

export function WebhooksView() {
  const [tab, setTab] = useState<Tab>('endpoints');
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Webhooks</h1>
          <p className="muted">
            Signed HTTP callbacks for events in this tenant (Standard Webhooks signatures).
          </p>
        </div>
      </div>
      <div className="tabs" role="tablist" aria-label="Webhook views">
        {(
          [
            ['endpoints', 'Endpoints'],
            ['failed', 'Failed deliveries'],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            id={`tab-${id}`}
            type="button"
            role="tab"
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => setTab(id)}
            onKeyDown={(event) => {
              // Arrow keys move between tabs (WAI-ARIA tabs pattern).
              if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
              const next: Tab = tab === 'endpoints' ? 'failed' : 'endpoints';
              setTab(next);
              document.getElementById(`tab-${next}`)?.focus();
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === 'endpoints' ? <Endpoints /> : <FailedDeliveries />}
      </div>
    </>
  );
}

function Endpoints() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions({}));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [flash, setFlash] = useFlash();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });

  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (endpoint) => {
        setCreating(false);
        setSecret({ label: `Signing secret for ${endpoint.url}`, value: endpoint.webhook_secret });
        setFlash('Endpoint created');
        void refresh();
      },
    }),
  );
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: (endpoint, input) => {
        setEditing(null);
        setFlash(
          input.is_active === undefined
            ? 'Endpoint updated'
            : `Endpoint ${endpoint.is_active ? 'enabled' : 'disabled'}`,
        );
        void refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: () => {
        setFlash('Endpoint deleted');
        void refresh();
      },
    }),
  );
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: (result) => {
        setSecret({
          label: 'New signing secret (the old one also signs for 24 hours)',
          value: result.webhook_secret,
        });
        setFlash('Secret rotated');
      },
    }),
  );
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: (result) => {
        setFlash(`Test event ${result.event.id} queued as delivery ${result.delivery.id}`);
        void refresh();
      },
    }),
  );

  const editingEndpoint = endpoints.data?.data.find((e) => e.id === editing);
  const actionError = update.error ?? remove.error ?? rotate.error ?? sendTest.error;

  return (
    <>
      {flash}
      {secret && <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      {creating ? (
        <>
          <EndpointForm
            mode="create"
            pending={create.isPending}
            onSubmit={(values) => create.mutate(values)}
            onCancel={() => {
              setCreating(false);
              create.reset();
            }}
          />
          <ErrorNote error={create.error} />
        </>
      ) : (
        <div className="row" style={{ marginBottom: '1rem' }}>
          <button type="button" onClick={() => setCreating(true)}>
            Add endpoint
          </button>
        </div>
      )}
      {editingEndpoint && (
        <EndpointForm
          key={editingEndpoint.id}
          mode="edit"
          initial={editingEndpoint}
          pending={update.isPending}
          onSubmit={(values) =>
            update.mutate({ id: editingEndpoint.id, events: values.events, description: values.description })
          }
          onCancel={() => setEditing(null)}
        />
      )}
      <ErrorNote error={actionError} />

      <QueryState
        query={endpoints}
        rows={endpoints.data?.data}
        empty={<p className="empty">No endpoints yet. Add one to receive events.</p>}
      >
        {(items) => (
          <table>
            <TableHead columns={['Endpoint', 'Events', 'State', 'Success (24 h)']} hidden="Actions" />
            <tbody>
              {items.map((e) => (
                <tr key={e.id} data-testid={`endpoint-${e.id}`}>
                  <td>
                    <Link href={`/settings/webhooks/${e.id}`}>{e.url}</Link>
                    {e.description && <div className="muted">{e.description}</div>}
                  </td>
                  <td>
                    <code>{e.events.join(', ')}</code>
                  </td>
                  <td>
                    <span className={`badge ${e.is_active ? 'badge-active' : 'badge-disabled'}`}>
                      {e.is_active ? 'active' : 'disabled'}
                    </span>
                  </td>
                  <td>
                    {e.recent_success_rate === null ? (
                      <span className="muted">no attempts</span>
                    ) : (
                      `${Math.round(e.recent_success_rate * 100)}% of ${e.recent_attempts}`
                    )}
                  </td>
                  <td className="actions">
                    <button
                      type="button"
                      className="small"
                      disabled={sendTest.isPending || !e.is_active}
                      title={e.is_active ? undefined : 'Enable the endpoint to send a test event'}
                      onClick={() => sendTest.mutate({ id: e.id })}
                    >
                      Send test
                    </button>
                    <button type="button" className="small secondary" onClick={() => setEditing(e.id)}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className="small secondary"
                      disabled={update.isPending}
                      onClick={() => update.mutate({ id: e.id, is_active: !e.is_active })}
                    >
                      {e.is_active ? 'Disable' : 'Enable'}
                    </button>
                    <button
                      type="button"
                      className="small secondary"
                      disabled={rotate.isPending}
                      onClick={() => {
                        if (
                          window.confirm(
                            'Rotate the signing secret? The old secret keeps signing for 24 hours.',
                          )
                        ) {
                          rotate.mutate({ id: e.id });
                        }
                      }}
                    >
                      Rotate secret
                    </button>
                    <button
                      type="button"
                      className="small danger"
                      disabled={remove.isPending}
                      onClick={() => {
                        if (
                          window.confirm(`Delete the endpoint ${e.url}? It stops receiving events at once.`)
                        ) {
                          remove.mutate({ id: e.id });
                        }
                      }}
                    >
                      Delete
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
