// The calls to Stripe that follow a change to a paid booking, made by the timer engine after that
// change committed (server/runtime/timers/fire.ts): never inside a database transaction, retried until Stripe
// answers, and taking effect once.
//
// - `payment.expire_checkout` (subject: the payment): its Checkout Session must stop taking money
//   (its booking was cancelled while unpaid, or its hold expired while Stripe was out of reach).
// - `payment.refund_late` (subject: the payment): a payment that arrived after its booking expired
//   and its slot was taken (./outcome.ts) is refunded in full.
//
// Each handler first asks Stripe (with an idempotency key of its own, so a retry after a crash or a
// lapsed claim is replayed by Stripe, never done twice), then records the answer in one transaction
// with the timer's fired mark (server/timers/plan.ts `markFired`; `fire` below). Stripe out of reach: the handler throws and the
// engine tries again shortly.
import { forTenant, type TenantTx } from '@/server/db/tenant-scope';
import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { findStripeConnection } from '@/server/domain/payment-providers/stripe-connection';
import { AppError } from '@/server/lib/errors';
import { logger } from '@/server/log';
import { createRefund } from '@/server/stripe/refunds';
import { type DueTimer, markFired, planTimers } from '@/server/timers/plan';
import { raiseRefundedTotal, recordStripeRefund, requestedBy } from '../record-refund';
import { onCheckoutFailed, onCheckoutPaid } from './outcome';
import { expireCheckout } from './session';

/** The Stripe idempotency key of a late payment's refund: one refund per payment, however often tried. */
export const lateRefundIdempotencyKey = (paymentId: string) => `switchboard-refund-${paymentId}-late`;

/**
 * The timer's effect, in one unit of work with its fired mark, so it happens once: 'stale' when
 * another run marked it first. Begins Prisma's transaction: the effects record through it.
 */
function fire(timer: DueTimer, effect: (tx: UnitOfWork, db: TenantTx) => Promise<string>): Promise<string> {
  return transaction({ tenantId: timer.tenantId }, async (tx) => {
    const db = await tx.orm();
    if (!(await markFired(tx, timer))) return 'stale';
    return effect(tx, db);
  });
}

/** Marks the timer fired with nothing else to do (the payment moved on). */
const done = (timer: DueTimer, outcome: string) => fire(timer, async () => outcome);

/** Stripe was disconnected since: nothing can be asked of it; a person finishes at Stripe. */
function withoutStripe(timer: DueTimer, paymentId: string, consequence: string): Promise<string> {
  logger().error(
    { tenant_id: timer.tenantId, payment_id: paymentId },
    `Stripe was disconnected: ${consequence}`,
  );
  return done(timer, 'no_provider');
}

/** payment.expire_checkout: expire the session; record what Stripe answers (failed, or paid first). */
export async function expireCheckoutTimer(timer: DueTimer): Promise<string> {
  const ctx = operationContext(timer.tenantId, SYSTEM_ACTOR);
  const payment = await ctx.db.payment.findUnique({ where: { id: timer.subjectId } });
  if (payment?.status !== 'pending' || payment.provider !== 'stripe' || !payment.providerRef) {
    return done(timer, 'nothing');
  }
  let closed: Awaited<ReturnType<typeof expireCheckout>>;
  try {
    closed = await expireCheckout(ctx, payment);
  } catch (error) {
    if (error instanceof AppError && error.code === 'payment_provider_missing') {
      return withoutStripe(timer, payment.id, 'the Checkout Session expires at Stripe by itself');
    }
    throw error; // unavailable: tried again by the engine
  }
  return fire(timer, async (tx, db) => {
    const current = await db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    if (closed.status === 'expired') {
      await onCheckoutFailed(tx, current);
      return 'expired';
    }
    if (closed.paid) {
      await onCheckoutPaid(tx, ctx, current, closed.paymentIntentId);
      return 'paid';
    }
    return 'awaiting_payment';
  });
}

/** payment.refund_late: refund the whole payment through Stripe, once, and record it. */
export async function refundLatePayment(timer: DueTimer): Promise<string> {
  const db = forTenant(timer.tenantId);
  const payment = await db.payment.findUnique({ where: { id: timer.subjectId } });
  if (payment?.status !== 'succeeded' || payment.provider !== 'stripe') return done(timer, 'nothing');
  const log = { tenant_id: timer.tenantId, payment_id: payment.id };
  if (!payment.stripePaymentIntentId) {
    logger().error(
      log,
      'a late payment without a PaymentIntent cannot be refunded here: refund it at Stripe',
    );
    return done(timer, 'no_payment_intent');
  }
  const connection = await findStripeConnection(db);
  if (!connection) return withoutStripe(timer, payment.id, 'refund the late payment at Stripe');
  // Always the whole amount under one key: a retry is replayed by Stripe, and even past Stripe's 24 h
  // memory of the key a second full refund of the charge is refused, never paid out twice.
  const result = await createRefund(connection.secretKey, {
    paymentIntentId: payment.stripePaymentIntentId,
    amount: payment.amount,
    idempotencyKey: lateRefundIdempotencyKey(payment.id),
    metadata: {
      tenant_id: timer.tenantId,
      payment_id: payment.id,
      booking_id: payment.bookingId ?? '',
      reason: 'booking_expired_slot_taken',
      requested_by: requestedBy(SYSTEM_ACTOR),
    },
  });
  if (!result.ok) {
    if (result.failure.kind === 'unavailable') throw new Error(`Stripe: ${result.failure.message}`);
    logger().error({ ...log, failure: result.failure }, 'Stripe refused the refund of a late payment');
    return done(timer, 'refused');
  }
  return fire(timer, async (tx) => {
    const ctx = operationContext(timer.tenantId, SYSTEM_ACTOR);
    await recordStripeRefund(tx, ctx, payment, {
      id: result.refundId,
      amount: result.amount,
      actor: SYSTEM_ACTOR,
    });
    if (result.refundedTotal !== undefined) await raiseRefundedTotal(tx, payment, result.refundedTotal);
    return 'refunded';
  });
}

/**
 * In the transaction that cancels a booking: its pending Stripe payments' sessions are withdrawn after
 * the commit (a `payment.expire_checkout` timer each), so the customer cannot pay for it any more.
 */
export async function withdrawCheckoutsOf(tx: UnitOfWork, bookingId: string): Promise<void> {
  const pending = await (await tx.orm()).payment.findMany({
    where: { bookingId, provider: 'stripe', status: 'pending', providerRef: { not: null } },
    select: { id: true },
  });
  for (const { id } of pending) {
    await planTimers(tx, {
      subjectId: id,
      kinds: ['payment.expire_checkout'],
      plans: [{ kind: 'payment.expire_checkout', dueAt: new Date() }],
    });
  }
}
