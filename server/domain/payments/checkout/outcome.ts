// What follows when Stripe settles a payment's Checkout Session: the one seam between Stripe's answers
// (its webhooks, ../apply-stripe-event.ts, and the timers that ask it, ./timers.ts) and the
// bookings. Both run inside the transaction that records what Stripe said, so the payment, the booking
// and the event's "applied once" row commit together or not at all.
//
// - Paid: payment pending → succeeded (payment.succeeded) and its booking confirmed (booking.confirmed).
//   A booking that had already expired is confirmed after all while its slot is still free (claimed
//   atomically, as a new booking would be). If the slot was taken since, the booking stays expired and
//   the payment is refunded in full through Stripe; that call is never made inside this transaction:
//   the obligation is recorded here as a `payment.refund_late` timer (due now) and performed once by
//   `refundLatePayment` in ./timers.ts after the commit, so a crash in between cannot lose it.
// - Failed (expired unpaid, or a delayed payment that failed): payment pending → failed
//   (payment.failed) and a still-pending booking expired (booking.expired), freeing its slot.
// - A booking in any other state (confirmed by hand, cancelled, completed) is left as it is: a paid
//   payment of a cancelled booking stays succeeded, for a person to refund (refunds are explicit).
import type { Payment } from '@/server/db/generated/client';
import type { UnitOfWork } from '@/server/db/unit-of-work';
import { confirmExpiredBooking, transitionIn } from '@/server/domain/bookings/transition';
import type { OperationContext } from '@/server/domain/context';
import { AppError } from '@/server/lib/errors';
import { logger } from '@/server/log';
import { planTimers } from '@/server/timers/plan';
import { movePayment } from '../transition';

/** The session is paid: pending → succeeded, remembering the PaymentIntent (refunds go against it). */
export async function onCheckoutPaid(
  tx: UnitOfWork,
  ctx: OperationContext,
  payment: Payment,
  paymentIntentId: string | null,
): Promise<'applied' | 'no_change'> {
  const moved = await movePayment(tx, {
    id: payment.id,
    to: 'succeeded',
    event: 'payment.succeeded',
    where: { provider: 'stripe' },
    data: { stripePaymentIntentId: paymentIntentId },
  });
  if (!moved) return 'no_change';
  if (payment.bookingId) await confirmPaidBooking(tx, ctx, payment.bookingId, moved.row);
  return 'applied';
}

/** The session expired unpaid, or its delayed payment failed: pending → failed. */
export async function onCheckoutFailed(tx: UnitOfWork, payment: Payment): Promise<'applied' | 'no_change'> {
  const moved = await movePayment(tx, {
    id: payment.id,
    to: 'failed',
    event: 'payment.failed',
    where: { provider: 'stripe' },
  });
  if (!moved) return 'no_change';
  if (payment.bookingId) await expireUnpaidBooking(tx, payment.bookingId);
  return 'applied';
}

async function confirmPaidBooking(
  tx: UnitOfWork,
  ctx: OperationContext,
  bookingId: string,
  payment: Payment,
) {
  const db = await tx.orm();
  const booking = await db.booking.findUnique({ where: { id: bookingId }, select: { status: true } });
  if (booking?.status === 'pending') {
    // Paid in time, or paid first while its hold was running out: confirmed, whatever the clock says.
    const confirmed = await transitionIn(tx, {
      id: bookingId,
      to: 'confirmed',
      event: 'booking.confirmed',
    }).catch(refusedTransition);
    if (confirmed) return;
  }
  // Re-read: the hold's expiry may have committed between the read above and the update.
  const now = await db.booking.findUnique({ where: { id: bookingId }, select: { status: true } });
  if (now?.status !== 'expired') {
    if (now && now.status !== 'confirmed') {
      logger().warn(
        { tenant_id: ctx.tenantId, booking_id: bookingId, payment_id: payment.id, status: now.status },
        'a payment succeeded for a booking that is no longer pending: left for a person to refund',
      );
    }
    return;
  }
  try {
    await confirmExpiredBooking(tx, { id: bookingId });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'slot_unavailable') throw error;
    // The slot was taken since: the booking stays expired and the money goes back, once, after commit.
    logger().info(
      { tenant_id: ctx.tenantId, booking_id: bookingId, payment_id: payment.id },
      'late payment for a slot taken since: refunding it through Stripe',
    );
    await planTimers(tx, {
      subjectId: payment.id,
      kinds: ['payment.refund_late'],
      plans: [{ kind: 'payment.refund_late', dueAt: new Date() }],
    });
  }
}

/** pending → expired (booking.expired), freeing its slot; any other state is left as it is. */
async function expireUnpaidBooking(tx: UnitOfWork, bookingId: string) {
  await transitionIn(tx, { id: bookingId, to: 'expired', event: 'booking.expired' }).catch(refusedTransition);
}

/** A transition that found the booking in another state (no SQL failed, so the transaction goes on). */
function refusedTransition(error: unknown): null {
  if (error instanceof AppError && (error.code === 'invalid_transition' || error.code === 'not_found')) {
    return null;
  }
  throw error;
}
