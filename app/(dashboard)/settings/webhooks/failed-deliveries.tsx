'use client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { StatusBadge } from '@/app/_components/delivery-status';
import { ErrorNote, formatTime, LoadMore, QueryState, useFlash } from '@/app/_components/feedback';
import { TableHead } from '@/app/_components/table-head';
import { useTRPC } from '@/app/_components/trpc';

/** Deliveries that used up every attempt, across all endpoints (CONTRACT §7). */
export function FailedDeliveries() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Deliveries fail in the background (after their last retry), so the list keeps itself current.
  const failed = useInfiniteQuery({
    ...trpc.webhooks.deliveries.infiniteQueryOptions(
      { status: 'failed' },
      { getNextPageParam: (page) => page.next_cursor },
    ),
    refetchInterval: 3000,
  });
  const rows = failed.data?.pages.flatMap((page) => page.data) ?? [];
  const endpoints = useQuery(trpc.webhooks.list.queryOptions({}));
  const [flash, setFlash] = useFlash();
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: (delivery) => {
        setFlash(`Resent as delivery ${delivery.id}`);
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
      },
    }),
  );
  const urlOf = (id: string) => endpoints.data?.data.find((e) => e.id === id)?.url ?? id;

  return (
    <>
      {flash}
      <ErrorNote error={resend.error} />
      <QueryState query={failed} rows={rows} empty={<p className="empty">No failed deliveries.</p>}>
        {() => (
          <table>
            <TableHead
              columns={['Delivery', 'Event', 'Endpoint', 'Attempts', 'Last attempt']}
              hidden="Actions"
            />
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-testid={`failed-${d.id}`}>
                  <td>
                    <Link href={`/settings/webhooks/${d.endpoint_id}?delivery=${d.id}`}>
                      <code>{d.id}</code>
                    </Link>{' '}
                    <StatusBadge status={d.status} />
                  </td>
                  <td>
                    <code>{d.event_type}</code>
                  </td>
                  <td>{urlOf(d.endpoint_id)}</td>
                  <td>{d.attempt_count}</td>
                  <td>{formatTime(d.last_attempt_at)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="small"
                      disabled={resend.isPending}
                      onClick={() => resend.mutate({ id: d.id })}
                    >
                      Resend
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      <LoadMore query={failed} />
    </>
  );
}
