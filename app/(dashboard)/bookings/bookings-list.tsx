'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { formatTime, Time } from '@/app/_components/feedback';
import { StatusSelect } from '@/app/_components/status-select';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  EmptyState,
  PromptDialog,
  StatusBadge,
  Table,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { LIMITS } from '@/server/client-safe/limits';
import { BOOKING_STATUSES } from '@/server/client-safe/statuses';

const FILTERS = ['all', ...BOOKING_STATUSES] as const;
type Filter = (typeof FILTERS)[number];

/** Every booking of the tenant, newest first, with a status filter: the calendar's second view (free-form bookings, which have no resource, are only here). */
export function BookingsList() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<Filter>('all');
  const bookings = useInfiniteQuery(
    trpc.bookings.listBookings.infiniteQueryOptions(
      { limit: 50, ...(filter === 'all' ? {} : { status: filter }) },
      cursorPages,
    ),
  );
  const feedback = useFeedback();
  const done = (verb: string) => ({
    feedback,
    success: (b: { customer: { name: string } }) => `Booking for ${b.customer.name} ${verb}`,
    invalidate: [trpc.bookings.pathKey()],
  });
  const confirm = useAction(trpc.bookings.confirmBooking.mutationOptions(), done('confirmed'));
  const complete = useAction(trpc.bookings.completeBooking.mutationOptions(), done('completed'));
  const cancel = useAction(trpc.bookings.cancelBooking.mutationOptions(), done('cancelled'));
  const busy = confirm.isPending || complete.isPending || cancel.isPending;

  return (
    <>
      <div className="mb-3 flex justify-end">
        <StatusSelect id="booking-filter" value={filter} options={FILTERS} onChange={setFilter} />
      </div>
      {feedback.node}
      <CursorList
        query={bookings}
        empty={<EmptyState>No bookings{filter === 'all' ? '' : ` with status ${filter}`}.</EmptyState>}
      >
        {(rows) => (
          <Table>
            <THead columns={['Customer', 'Service', 'Starts', 'Ends', 'Status']} actions="Actions" />
            <TBody>
              {rows.map((b) => (
                <Tr key={b.id} data-testid={`booking-${b.id}`}>
                  <Td>
                    {b.customer.name}
                    <div className="text-sm text-muted">{b.customer.email ?? b.customer.phone ?? ''}</div>
                  </Td>
                  <Td>{b.service ?? <span className="text-muted">—</span>}</Td>
                  <Td>
                    <Time value={b.start_at} />
                  </Td>
                  <Td>
                    <Time value={b.end_at} />
                  </Td>
                  <Td>
                    <StatusBadge status={b.status} />
                    {b.cancellation_reason && (
                      <div className="mt-1 text-sm text-muted">{b.cancellation_reason}</div>
                    )}
                  </Td>
                  <Td actions>
                    {b.status === 'pending' && (
                      <Button size="sm" disabled={busy} onClick={() => confirm.mutate({ id: b.id })}>
                        Confirm
                      </Button>
                    )}
                    {b.status === 'confirmed' && (
                      <Button size="sm" disabled={busy} onClick={() => complete.mutate({ id: b.id })}>
                        Complete
                      </Button>
                    )}
                    {(b.status === 'pending' || b.status === 'confirmed') && (
                      <PromptDialog
                        trigger={
                          <Button size="sm" variant="danger" disabled={busy}>
                            Cancel
                          </Button>
                        }
                        title={`Cancel the booking for ${b.customer.name}?`}
                        description={`${b.service ?? 'Booking'} on ${formatTime(b.start_at)}.`}
                        label="Reason"
                        hint="Optional. Kept with the booking and sent with the event."
                        multiline
                        maxLength={LIMITS.cancellationReason}
                        submitLabel="Cancel booking"
                        cancelLabel="Keep booking"
                        destructive
                        onSubmit={(reason) => cancel.mutateAsync({ id: b.id, ...(reason ? { reason } : {}) })}
                      />
                    )}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </CursorList>
    </>
  );
}
