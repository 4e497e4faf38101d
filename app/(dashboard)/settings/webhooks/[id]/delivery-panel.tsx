'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { StatusBadge } from '@/app/_components/delivery-status';
import { ErrorNote, formatTime, Loading, useFlash } from '@/app/_components/feedback';
import { TableHead } from '@/app/_components/table-head';
import { useTRPC } from '@/app/_components/trpc';

/** One delivery: every attempt, the payload as sent, and Resend. */
export function DeliveryPanel({ id, onResent }: { id: string; onResent: (newId: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [flash, setFlash] = useFlash();
  const delivery = useQuery({
    ...trpc.webhooks.delivery.queryOptions({ id }),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 1000 : false),
  });
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: (created) => {
        setFlash(`Resent as delivery ${created.id}`);
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
        onResent(created.id);
      },
    }),
  );

  return (
    <section
      className="panel"
      style={{ marginTop: '1rem' }}
      aria-labelledby="delivery-title"
      data-testid="delivery-panel"
    >
      {flash}
      {delivery.isPending ? (
        <Loading />
      ) : delivery.error ? (
        <ErrorNote error={delivery.error} />
      ) : (
        <>
          <div className="page-head">
            <h2 id="delivery-title" style={{ margin: 0 }}>
              Delivery <code>{delivery.data.id}</code> <StatusBadge status={delivery.data.status} />
            </h2>
            <button
              type="button"
              disabled={resend.isPending}
              onClick={() => resend.mutate({ id: delivery.data.id })}
            >
              {resend.isPending ? 'Resending…' : 'Resend'}
            </button>
          </div>
          <ErrorNote error={resend.error} />
          <dl className="meta">
            <dt>Event</dt>
            <dd>
              <code>{delivery.data.event_type}</code> · <code>{delivery.data.event_id}</code>
            </dd>
            {delivery.data.next_attempt_at && (
              <>
                <dt>Next attempt</dt>
                <dd>{formatTime(delivery.data.next_attempt_at)}</dd>
              </>
            )}
          </dl>
          <h3>Attempts</h3>
          {delivery.data.attempts.length === 0 ? (
            <p className="muted">No attempt yet.</p>
          ) : (
            <table>
              <TableHead columns={['#', 'Time', 'Result', 'Status code', 'Latency', 'Error / response']} />
              <tbody>
                {delivery.data.attempts.map((a) => (
                  <tr key={a.attempt_number} data-testid={`attempt-${a.attempt_number}`}>
                    <td>{a.attempt_number}</td>
                    <td>{formatTime(a.started_at)}</td>
                    <td>
                      <StatusBadge status={a.succeeded ? 'succeeded' : 'failed'} />
                    </td>
                    <td>{a.response_status ?? '—'}</td>
                    <td>{a.latency_ms} ms</td>
                    <td>
                      {a.error && (
                        <div className="note-error" style={{ padding: '0.2rem 0.4rem', borderRadius: 4 }}>
                          {a.error}
                        </div>
                      )}
                      {a.response_excerpt && (
                        <pre style={{ margin: '0.25rem 0 0', maxHeight: '8rem' }}>{a.response_excerpt}</pre>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Payload</h3>
          <pre data-testid="delivery-payload">{JSON.stringify(delivery.data.event, null, 2)}</pre>
        </>
      )}
    </section>
  );
}
