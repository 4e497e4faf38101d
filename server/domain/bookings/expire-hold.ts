// A hold that ran out (its timer, server/timers): pending → expired, freeing its slot, with
// booking.expired; in the transaction that marks the timer fired, so it happens once.
//
// A booking with a pending Stripe payment is first withdrawn at Stripe (its Checkout Session expired),
// before any transaction is opened: the answer decides what the transaction does.
// - Expired at Stripe: the booking expires and the payment fails (payment.failed); the session's own
//   checkout.session.expired webhook then changes nothing.
// - Completed and paid at Stripe (paid first, its webhook not here yet): the booking is confirmed
//   instead and the payment succeeds, never expired.
// - Completed with a delayed method still settling (a bank debit: days, not minutes): the hold ends on
//   time all the same (no customer's slot stays blocked past its hold). The payment stays pending for
//   Stripe's verdict, which then takes the late-payment path: async_payment_succeeded confirms the
//   booking while its slot is still free and refunds the payment in full otherwise;
//   async_payment_failed fails the payment.
// - Stripe out of reach (or disconnected): the hold is kept as promised (the booking expires and its
//   slot is free on time) and the session is withdrawn later by a `payment.expire_checkout` timer; a
//   payment that lands in between is a late payment (confirmed while the slot is free, else refunded).
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { onCheckoutFailed, onCheckoutPaid } from '@/server/domain/payments/checkout/outcome';
import { type CheckoutClosed, expireCheckout } from '@/server/domain/payments/checkout/session';
import { AppError } from '@/server/lib/errors';
import { logger } from '@/server/log';
import { type DueTimer, markFired, planTimers } from '@/server/timers/plan';
import { transitionIn } from './transition';

export async function expireHeldBooking(
  timer: DueTimer,
): Promise<'expired' | 'confirmed' | 'nothing' | 'stale'> {
  const ctx = operationContext(timer.tenantId, SYSTEM_ACTOR);
  const db = forTenant(timer.tenantId);
  const held = await db.booking.findUnique({
    where: { id: timer.subjectId },
    select: { status: true, holdExpiresAt: true },
  });
  const due = (b: typeof held) =>
    b?.status === 'pending' && b.holdExpiresAt !== null && b.holdExpiresAt <= new Date();
  const payment = due(held)
    ? await db.payment.findFirst({
        where: {
          bookingId: timer.subjectId,
          provider: 'stripe',
          status: 'pending',
          providerRef: { not: null },
        },
        orderBy: { createdAt: 'desc' },
      })
    : null;
  // Asked before the transaction: a call to Stripe can take seconds and must hold no lock meanwhile.
  const closed = payment ? await askStripe(ctx, payment) : null;

  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    if (!(await markFired(tx, timer))) return 'stale';
    const current = await db.booking.findUnique({
      where: { id: timer.subjectId },
      select: { status: true, holdExpiresAt: true },
    });
    if (!due(current)) return 'nothing';
    const paymentNow = payment && (await db.payment.findUniqueOrThrow({ where: { id: payment.id } }));
    if (paymentNow && closed?.status === 'complete' && closed.paid) {
      await onCheckoutPaid(tx, ctx, paymentNow, closed.paymentIntentId);
      return 'confirmed';
    }
    await transitionIn(tx, {
      id: timer.subjectId,
      to: 'expired',
      event: 'booking.expired',
      when: { holdExpiresAt: { lte: new Date() } },
    });
    if (paymentNow && closed?.status === 'expired') await onCheckoutFailed(tx, paymentNow);
    if (paymentNow && !closed) {
      await planTimers(tx, {
        subjectId: paymentNow.id,
        kinds: ['payment.expire_checkout'],
        plans: [{ kind: 'payment.expire_checkout', dueAt: new Date() }],
      });
    }
    return 'expired';
  });
}

/** Stripe's answer, or null when it cannot be asked now (out of reach, or disconnected). */
async function askStripe(
  ctx: ReturnType<typeof operationContext>,
  payment: { id: string; provider: string; providerRef: string | null },
): Promise<CheckoutClosed | null> {
  try {
    return await expireCheckout(ctx, payment);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    logger().warn(
      { tenant_id: ctx.tenantId, payment_id: payment.id, code: error.code },
      'could not expire the Checkout Session of a hold that ran out: the booking expires, the session later',
    );
    return null;
  }
}
