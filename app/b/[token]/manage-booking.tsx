'use client';
/**
 * The booking as its customer sees it, in their own zone, with what they may still do: pay a pending
 * payment, move it to another free time, cancel it (until the service's notice before the start).
 */
import { useEffect, useState } from 'react';
import { money } from '@/app/_components/booking-page/page-shell';
import { callPublic, newAttemptKey, type Slot } from '@/app/_components/booking-page/public-api';
import { SlotPicker } from '@/app/_components/booking-page/slot-picker';
import { dateTimeLabel, detectedZone, offsetLabel } from '@/app/_components/booking-page/visitor-time';
import { Button, Card, CardBody, CardHeader, ConfirmDialog, Notice, StatusBadge } from '@/app/_components/ui';

interface Managed {
  id: string;
  status: string;
  start_at: string;
  end_at: string;
  service: { name: string | null; duration_minutes: number };
  time_zone: string;
  payment: { status: string; amount: number; currency: string; checkout_url: string | null } | null;
  cancellation_reason: string | null;
  change_until: string | null;
  can_change: boolean;
}

function headline(b: Managed): { title: string; text?: string } {
  if (b.status === 'pending' && b.payment?.checkout_url)
    return { title: 'Almost done: pay to confirm', text: 'The time is held for you while you pay.' };
  if (b.status === 'pending') return { title: 'Booking requested', text: 'The business will confirm it.' };
  if (b.status === 'confirmed') return { title: 'Booking confirmed' };
  if (b.status === 'cancelled') return { title: 'Booking cancelled' };
  return { title: `Booking ${b.status.replaceAll('_', ' ')}` };
}

export function ManageBooking({ token, initial }: { token: string; initial: Managed }) {
  const [booking, setBooking] = useState(initial);
  // Server-rendered in the business's zone; the visitor's own once in the browser.
  const [zone, setZone] = useState(initial.time_zone);
  const [moving, setMoving] = useState(false);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => setZone(detectedZone()), []);

  async function reschedule() {
    if (!slot) return;
    setPending(true);
    setProblem(null);
    const answer = await callPublic<Managed>('POST', `/bookings/${token}/reschedule`, {
      body: { start_at: slot.start },
      idempotencyKey: newAttemptKey(),
    });
    setPending(false);
    if (answer.ok) {
      setBooking(answer.body);
      setMoving(false);
      setSlot(null);
      setDone('Your booking was moved.');
      return;
    }
    if (answer.problem.code === 'slot_unavailable') {
      setSlot(null);
      setRefreshKey((k) => k + 1);
      setProblem('Sorry, that time was just taken. Here are the free times again.');
    } else setProblem(answer.problem.message);
  }

  async function cancel() {
    const answer = await callPublic<Managed>('POST', `/bookings/${token}/cancel`, {
      idempotencyKey: newAttemptKey(),
    });
    if (!answer.ok) throw new Error(answer.problem.message);
    setBooking(answer.body);
    setMoving(false);
    setDone('Your booking was cancelled.');
  }

  const { title, text } = headline(booking);
  const active = booking.status === 'pending' || booking.status === 'confirmed';

  return (
    <>
      <Card>
        <CardHeader as="h1" title={title} description={text} />
        <CardBody className="flex flex-col gap-4">
          {done && (
            <Notice tone="success" role="status">
              {done}
            </Notice>
          )}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-semibold">What</dt>
            <dd>
              {booking.service.name ?? 'Appointment'} · {booking.service.duration_minutes} min
            </dd>
            <dt className="font-semibold">When</dt>
            <dd data-testid="booking-time">
              {dateTimeLabel(booking.start_at, zone)}
              <span className="block text-xs text-muted">
                {zone} ({offsetLabel(zone, Date.parse(booking.start_at))})
              </span>
            </dd>
            <dt className="font-semibold">Status</dt>
            <dd>
              <StatusBadge status={booking.status} />
            </dd>
            {booking.payment && (
              <>
                <dt className="font-semibold">Payment</dt>
                <dd>
                  {money(booking.payment.amount, booking.payment.currency)}{' '}
                  <StatusBadge status={booking.payment.status} />
                </dd>
              </>
            )}
          </dl>
          {booking.payment?.checkout_url && (
            <Button asChild className="min-h-11 w-full sm:w-auto sm:self-start">
              <a href={booking.payment.checkout_url}>
                Pay {money(booking.payment.amount, booking.payment.currency)}
              </a>
            </Button>
          )}
          {active && !booking.can_change && (
            <p className="text-sm text-muted">
              It is too close to the start to change this booking here: contact the business.
            </p>
          )}
          {booking.can_change && (
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" className="min-h-11" onClick={() => setMoving((m) => !m)}>
                {moving ? 'Keep this time' : 'Reschedule'}
              </Button>
              <ConfirmDialog
                trigger={
                  <Button variant="danger" className="min-h-11">
                    Cancel booking
                  </Button>
                }
                title="Cancel this booking?"
                description={`${booking.service.name ?? 'Appointment'}, ${dateTimeLabel(booking.start_at, zone)}. This cannot be undone.${
                  booking.payment?.status === 'succeeded'
                    ? ' What you paid is not refunded here: the business decides that.'
                    : ''
                }`}
                confirmLabel="Cancel booking"
                cancelLabel="Keep it"
                destructive
                onConfirm={cancel}
              />
            </div>
          )}
          <p className="text-xs text-muted">Keep this page’s address: it is how you change or cancel.</p>
        </CardBody>
      </Card>

      {moving && booking.can_change && (
        <Card>
          <CardHeader title="Choose a new time" />
          <CardBody className="flex flex-col gap-4">
            {problem && (
              <Notice tone="error" role="alert">
                {problem}
              </Notice>
            )}
            <SlotPicker
              slotsPath={`/bookings/${token}/slots`}
              zone={zone}
              onZoneChange={setZone}
              selected={slot}
              onSelect={setSlot}
              refreshKey={refreshKey}
            />
            {slot && (
              <div className="flex flex-col gap-3 border-t border-border pt-4">
                <p className="text-sm">
                  <span className="font-semibold">New time:</span> {dateTimeLabel(slot.start, zone)}
                </p>
                <Button
                  loading={pending}
                  onClick={reschedule}
                  className="min-h-11 w-full sm:w-auto sm:self-start"
                >
                  Move my booking
                </Button>
              </div>
            )}
          </CardBody>
        </Card>
      )}
    </>
  );
}
