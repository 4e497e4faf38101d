'use client';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { StatusBadge } from '@/app/_components/delivery-status';
import { ErrorNote, formatTime, LoadMore, QueryState, useFlash } from '@/app/_components/feedback';
import { StatusSelect } from '@/app/_components/status-select';
import { TableHead } from '@/app/_components/table-head';
import { useTRPC } from '@/app/_components/trpc';

const FILTERS = ['all', 'pending', 'confirmed', 'completed', 'cancelled'] as const;
type Filter = (typeof FILTERS)[number];

export function BookingsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>('all');
  const bookings = useInfiniteQuery(
    trpc.bookings.list.infiniteQueryOptions(filter === 'all' ? {} : { status: filter }, {
      getNextPageParam: (page) => page.next_cursor,
    }),
  );
  const rows = bookings.data?.pages.flatMap((page) => page.data) ?? [];
  const [flash, setFlash] = useFlash();
  const done = (verb: string) => ({
    onSuccess: (b: { id: string; customer: { name: string } }) => {
      setFlash(`Booking for ${b.customer.name} ${verb}`);
      void queryClient.invalidateQueries({ queryKey: trpc.bookings.pathKey() });
    },
  });
  const confirm = useMutation(trpc.bookings.confirm.mutationOptions(done('confirmed')));
  const complete = useMutation(trpc.bookings.complete.mutationOptions(done('completed')));
  const cancel = useMutation(trpc.bookings.cancel.mutationOptions(done('cancelled')));
  const busy = confirm.isPending || complete.isPending || cancel.isPending;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Bookings</h1>
          <p className="muted">Appointments made by customers, your assistant or the API.</p>
        </div>
        <div className="row">
          <StatusSelect id="booking-filter" value={filter} options={FILTERS} onChange={setFilter} />
        </div>
      </div>
      {flash}
      <ErrorNote error={confirm.error ?? complete.error ?? cancel.error} />
      <QueryState
        query={bookings}
        rows={rows}
        empty={<p className="empty">No bookings{filter === 'all' ? '' : ` with status ${filter}`}.</p>}
      >
        {() => (
          <table>
            <TableHead columns={['Customer', 'Service', 'Starts', 'Ends', 'Status']} hidden="Actions" />
            <tbody>
              {rows.map((b) => (
                <tr key={b.id} data-testid={`booking-${b.id}`}>
                  <td>
                    {b.customer.name}
                    <div className="muted">{b.customer.email ?? b.customer.phone ?? ''}</div>
                  </td>
                  <td>{b.service ?? <span className="muted">—</span>}</td>
                  <td>{formatTime(b.start_at)}</td>
                  <td>{formatTime(b.end_at)}</td>
                  <td>
                    <StatusBadge status={b.status} />
                    {b.cancellation_reason && <div className="muted">{b.cancellation_reason}</div>}
                  </td>
                  <td className="actions">
                    {b.status === 'pending' && (
                      <button
                        type="button"
                        className="small"
                        disabled={busy}
                        onClick={() => confirm.mutate({ id: b.id })}
                      >
                        Confirm
                      </button>
                    )}
                    {b.status === 'confirmed' && (
                      <button
                        type="button"
                        className="small"
                        disabled={busy}
                        onClick={() => complete.mutate({ id: b.id })}
                      >
                        Complete
                      </button>
                    )}
                    {(b.status === 'pending' || b.status === 'confirmed') && (
                      <button
                        type="button"
                        className="small danger"
                        disabled={busy}
                        onClick={() => {
                          const reason = window.prompt(
                            `Cancel the booking for ${b.customer.name}? Reason (optional):`,
                            '',
                          );
                          if (reason !== null) cancel.mutate({ id: b.id, reason: reason.trim() || null });
                        }}
                      >
                        Cancel
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      <LoadMore query={bookings} />
    </>
  );
}
