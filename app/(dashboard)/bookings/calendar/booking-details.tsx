'use client';
/**
 * A booking's details, opened from its block on the calendar, with the actions its state allows:
 * confirm (pending, hold not ended), complete (confirmed), reschedule (pending or confirmed, of a
 * service: choose a new free time, offered by GET /slots with reschedule_booking_id so times overlapping
 * its current one count as free), no-show (confirmed, once it has started; confirmation asked) and cancel
 * (with a reason; confirmation asked). Each action reports its outcome; the details stay current.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { type RouterOutputs, useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Code,
  ConfirmDialog,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  ErrorNotice,
  errorCode,
  type Feedback,
  Notice,
  PromptDialog,
  StatusBadge,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { useViewer } from '@/app/_components/viewer';
import { formatClock, formatDateTime } from '@/app/_components/zoned-time';
import { LIMITS } from '@/server/client-safe/limits';
import { BookingPayment } from '../booking-payment';
import { blockKind } from './layout';
import { SlotPicker } from './slot-picker';
import type { CalendarBooking, CalendarResource } from './time-grid';

type Service = RouterOutputs['services']['listServices']['data'][number];

export function BookingDetails({
  id,
  initial,
  zone,
  resources,
  services,
  onClose,
  onMoved,
  feedback: pageFeedback,
}: {
  id: string;
  initial: CalendarBooking;
  zone: string;
  resources: CalendarResource[];
  services: Service[];
  onClose: () => void;
  onMoved: (booking: CalendarBooking) => void;
  feedback: Feedback;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useViewer();
  const booking = useQuery({ ...trpc.bookings.getBooking.queryOptions({ id }), initialData: initial }).data;
  const feedback = useFeedback();
  const [moving, setMoving] = useState(false);
  const now = Date.now();
  const invalidate = [trpc.bookings.pathKey(), trpc.resources.pathKey()];
  const done = (verb: string) => ({
    feedback,
    success: (b: { customer: { name: string } }) => `Booking for ${b.customer.name} ${verb}`,
    invalidate,
  });
  const confirm = useAction(trpc.bookings.confirmBooking.mutationOptions(), done('confirmed'));
  const complete = useAction(trpc.bookings.completeBooking.mutationOptions(), done('completed'));
  const cancel = useAction(trpc.bookings.cancelBooking.mutationOptions(), done('cancelled'));
  const noShow = useAction(trpc.bookings.markBookingNoShow.mutationOptions(), done('marked as a no-show'));
  const reschedule = useAction(
    {
      ...trpc.bookings.rescheduleBooking.mutationOptions(),
      onError: (error) => {
        // Someone else took the time: offer the free times as they are now.
        if (errorCode(error) === 'slot_unavailable')
          for (const queryKey of invalidate) void queryClient.invalidateQueries({ queryKey });
      },
    },
    {
      invalidate,
      onSuccess: (b) => {
        setMoving(false);
        pageFeedback.success(`Booking for ${b.customer.name} moved to ${formatDateTime(b.start_at, zone)}`);
        onMoved(b);
        onClose();
      },
    },
  );
  const busy = confirm.isPending || complete.isPending || cancel.isPending || noShow.isPending;

  const kind = blockKind(booking, now);
  const active = booking.status === 'pending' || booking.status === 'confirmed';
  const started = Date.parse(booking.start_at) <= now;
  const resource = resources.find((r) => r.id === booking.resource_id);
  const service = services.find((s) => s.id === booking.service_id);
  const write = can('bookings.write');

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <DialogTitle className="flex flex-wrap items-center gap-2 pr-2">
          <span className="min-w-0 [overflow-wrap:anywhere]">{booking.customer.name}</span>
          <StatusBadge status={booking.status} />
        </DialogTitle>
        {feedback.node}
        {kind === 'hold' && booking.hold_expires_at && (
          <Notice tone="warn">
            A hold: released at {formatClock(booking.hold_expires_at, zone)} unless it is confirmed by then.
          </Notice>
        )}
        {kind === 'hold_ended' && (
          <Notice tone="warn">
            The hold ended at {formatClock(booking.hold_expires_at ?? '', zone)}: it is expiring.
          </Notice>
        )}
        <DialogDescription asChild>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm text-fg">
            <Row label="When">
              {formatDateTime(booking.start_at, zone)}–{formatClock(booking.end_at, zone)}{' '}
              <span className="text-muted">({zone})</span>
            </Row>
            <Row label="Service">{booking.service ?? '—'}</Row>
            <Row label="Resource">{resource?.name ?? booking.resource_id ?? '—'}</Row>
            {booking.customer.email && <Row label="Email">{booking.customer.email}</Row>}
            {booking.customer.phone && <Row label="Phone">{booking.customer.phone}</Row>}
            {booking.notes && <Row label="Notes">{booking.notes}</Row>}
            {booking.cancellation_reason && <Row label="Reason">{booking.cancellation_reason}</Row>}
            <Row label="Id">
              <Code>{booking.id}</Code>
            </Row>
          </dl>
        </DialogDescription>
        {booking.payment && <BookingPayment bookingId={booking.id} />}

        {write && active && (
          <div className="flex flex-wrap gap-2 border-t border-border pt-3">
            {booking.status === 'pending' && (
              <Button
                disabled={busy || kind === 'hold_ended'}
                loading={confirm.isPending}
                onClick={() => confirm.mutate({ id: booking.id })}
              >
                Confirm
              </Button>
            )}
            {booking.status === 'confirmed' && (
              <Button
                disabled={busy}
                loading={complete.isPending}
                onClick={() => complete.mutate({ id: booking.id })}
              >
                Complete
              </Button>
            )}
            {booking.service_id && (
              <Button
                variant="secondary"
                disabled={busy}
                aria-expanded={moving}
                onClick={() => setMoving((m) => !m)}
              >
                Reschedule
              </Button>
            )}
            {booking.status === 'confirmed' && (
              <ConfirmDialog
                trigger={
                  <Button
                    variant="secondary"
                    disabled={busy || !started}
                    title={started ? undefined : 'Possible once the booking has started'}
                  >
                    No-show
                  </Button>
                }
                title={`Mark ${booking.customer.name} as a no-show?`}
                description={`The customer did not come to ${booking.service ?? 'the booking'} on ${formatDateTime(booking.start_at, zone)}. This is final.`}
                confirmLabel="Mark no-show"
                destructive
                onConfirm={() => noShow.mutateAsync({ id: booking.id })}
              />
            )}
            <PromptDialog
              trigger={
                <Button variant="danger" disabled={busy}>
                  Cancel booking
                </Button>
              }
              title={`Cancel the booking for ${booking.customer.name}?`}
              description={`${booking.service ?? 'Booking'} on ${formatDateTime(booking.start_at, zone)}. Its time becomes free.`}
              label="Reason"
              hint="Optional. Kept with the booking and sent with the event."
              multiline
              maxLength={LIMITS.cancellationReason}
              submitLabel="Cancel booking"
              cancelLabel="Keep booking"
              destructive
              onSubmit={(reason) => cancel.mutateAsync({ id: booking.id, ...(reason ? { reason } : {}) })}
            />
          </div>
        )}
        {write && booking.status === 'confirmed' && !started && (
          <p className="text-xs text-muted">No-show can be recorded once the booking has started.</p>
        )}

        {moving && active && booking.service_id && (
          <section aria-label="Reschedule" className="flex flex-col gap-2 border-t border-border pt-3">
            <h3 className="font-semibold">Choose a new time</h3>
            {errorCode(reschedule.error) === 'slot_unavailable' ? (
              <Notice tone="error" role="alert">
                That time was just taken by another booking. The free times have been read again: choose
                another.
              </Notice>
            ) : (
              <ErrorNotice error={reschedule.error} />
            )}
            <SlotPicker
              booking={booking}
              zone={zone}
              resources={resources.filter(
                (r) => service?.resource_ids.includes(r.id) ?? r.id === booking.resource_id,
              )}
              pending={reschedule.isPending}
              submitLabel="Move booking"
              onPick={(start, resourceId) =>
                reschedule.mutate({ id: booking.id, start_at: start, resource_id: resourceId })
              }
            />
          </section>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-semibold text-muted">{label}</dt>
      <dd className="min-w-0 [overflow-wrap:anywhere]">{children}</dd>
    </>
  );
}
