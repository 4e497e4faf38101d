// Applies one verified Stripe event to the tenant's payments, once.
//
// Once: the event id is claimed in `stripe_events` first, in the same transaction as everything the
// event changes. A repeat (Stripe retries, replays from its dashboard, two deliveries at the same time)
// finds the claim, or waits for the first transaction and then finds it, and changes nothing.
//
// Any order: every change is a conditional move that only goes forward (pending → succeeded | failed,
// a refunded total that only rises), so a late or repeated fact changes nothing. The one fact that
// cannot be placed when it arrives early is a `charge.refunded` for a payment whose completion has not
// arrived yet: only the completion names the PaymentIntent the charge belongs to. Such an event is kept
// as `deferred` (with the charge's running refunded total) and applied in the transaction of the
// completion that names its PaymentIntent; nothing is lost and nothing is applied to the wrong payment.
import type { Payment, Prisma } from '@/server/db/generated/client';
import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import type { StripeWebhookOutcome } from '@/server/domain/payment-providers/schemas';
import { logger } from '@/server/log';
import type { ListedRefund } from '@/server/stripe/refunds';
import type { StripeNotice } from '@/server/stripe/webhook-events';
import { onCheckoutFailed, onCheckoutPaid } from './checkout/outcome';
import { raiseRefundedTotal, recordStripeRefund, refundActor } from './record-refund';

type Followed = Exclude<StripeNotice, { kind: 'not_followed' }>;

interface Applied {
  outcome: Exclude<StripeWebhookOutcome, 'duplicate'>;
  paymentId?: string;
  paymentIntentId?: string;
  amountRefunded?: number;
}

export async function applyStripeEvent(
  ctx: OperationContext,
  event: { id: string; type: string },
  notice: Followed,
  /** charge.refunded: the PaymentIntent's refunds as Stripe lists them (receive-stripe-webhook.ts). */
  refunds: ListedRefund[] = [],
): Promise<StripeWebhookOutcome> {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const claimed = await db.stripeEvent.createMany({
      data: [{ tenantId: ctx.tenantId, eventId: event.id, type: event.type, outcome: 'ignored' }],
      skipDuplicates: true,
    });
    if (claimed.count === 0) return 'duplicate';
    const applied = await apply(tx, ctx, notice, refunds);
    await db.stripeEvent.update({
      where: { tenantId_eventId: { tenantId: ctx.tenantId, eventId: event.id } },
      data: {
        outcome: applied.outcome,
        paymentId: applied.paymentId ?? null,
        paymentIntentId: applied.paymentIntentId ?? null,
        amountRefunded: applied.amountRefunded ?? null,
        // Kept with a deferred event, to be recorded with the completion that names its payment.
        ...(applied.outcome === 'deferred' ? { refunds: refunds as unknown as Prisma.InputJsonValue } : {}),
      },
    });
    logger().info(
      {
        tenant_id: ctx.tenantId,
        stripe_event_id: event.id,
        type: event.type,
        outcome: applied.outcome,
        payment_id: applied.paymentId,
      },
      'stripe event',
    );
    return applied.outcome;
  });
}

async function apply(
  tx: UnitOfWork,
  ctx: OperationContext,
  notice: Followed,
  refunds: ListedRefund[],
): Promise<Applied> {
  switch (notice.kind) {
    case 'unreadable':
      logger().error({ tenant_id: ctx.tenantId, reason: notice.reason }, 'stripe event without what we read');
      return { outcome: 'ignored' };
    case 'checkout_paid': {
      const payment = await checkoutPayment(tx, ctx, notice.sessionId, notice.metadata);
      if (!payment) return { outcome: 'ignored' };
      if (payment.status !== 'pending') return noChange(ctx, payment, 'paid');
      if (!notice.paymentIntentId) {
        logger().warn(
          { payment_id: payment.id },
          'paid Checkout Session without a PaymentIntent: no refunds',
        );
      }
      await onCheckoutPaid(tx, ctx, payment, notice.paymentIntentId);
      if (notice.paymentIntentId) await applyDeferredRefunds(tx, ctx, payment, notice.paymentIntentId);
      return { outcome: 'applied', paymentId: payment.id };
    }
    case 'checkout_awaiting_payment': {
      const payment = await checkoutPayment(tx, ctx, notice.sessionId, notice.metadata);
      return payment ? { outcome: 'no_change', paymentId: payment.id } : { outcome: 'ignored' };
    }
    case 'checkout_failed': {
      const payment = await checkoutPayment(tx, ctx, notice.sessionId, notice.metadata);
      if (!payment) return { outcome: 'ignored' };
      if (payment.status !== 'pending') return noChange(ctx, payment, 'failed');
      await onCheckoutFailed(tx, payment);
      return { outcome: 'applied', paymentId: payment.id };
    }
    case 'charge_refunded': {
      if (!notice.paymentIntentId) return { outcome: 'ignored' };
      const payment = await (await tx.orm()).payment.findFirst({
        where: { provider: 'stripe', stripePaymentIntentId: notice.paymentIntentId },
      });
      if (!payment) {
        // Its completion has not arrived yet (or it is not a payment of ours): wait for it.
        return {
          outcome: 'deferred',
          paymentIntentId: notice.paymentIntentId,
          amountRefunded: notice.amountRefunded,
        };
      }
      const outcome = await recordRefunds(tx, ctx, payment, refunds, notice.amountRefunded);
      return { outcome, paymentId: payment.id, paymentIntentId: notice.paymentIntentId };
    }
  }
}

/**
 * The tenant's Stripe payment whose Checkout Session this is. The session id is the payment's
 * provider_ref; the metadata we put on the session must agree with it.
 */
async function checkoutPayment(
  tx: UnitOfWork,
  ctx: OperationContext,
  sessionId: string,
  metadata: Record<string, string>,
): Promise<Payment | null> {
  const payment = await (await tx.orm()).payment.findFirst({
    where: { provider: 'stripe', providerRef: sessionId },
  });
  if (!payment) return null;
  if (metadata.payment_id !== undefined && metadata.payment_id !== payment.id) {
    logger().warn(
      { tenant_id: ctx.tenantId, payment_id: payment.id, metadata_payment_id: metadata.payment_id },
      "Checkout Session's metadata names another payment: ignored",
    );
    return null;
  }
  return payment;
}

function noChange(ctx: OperationContext, payment: Payment, says: 'paid' | 'failed'): Applied {
  // A paid session for a payment we failed (or the reverse) cannot happen at Stripe: an expired session
  // takes no money. Worth a person's attention if it ever does.
  const contradicts =
    (says === 'paid' && payment.status === 'failed') || (says === 'failed' && payment.status !== 'failed');
  if (contradicts) {
    logger().error(
      { tenant_id: ctx.tenantId, payment_id: payment.id, status: payment.status, stripe_says: says },
      'Stripe contradicts the payment: left as it is',
    );
  }
  return { outcome: 'no_change', paymentId: payment.id };
}

/**
 * Each refund Stripe listed, once by its id (audited, with its payment.refunded), then the charge's
 * running total (which only rises): 'applied' when either changed anything.
 */
async function recordRefunds(
  tx: UnitOfWork,
  ctx: OperationContext,
  payment: Payment,
  refunds: ListedRefund[],
  total: number,
): Promise<'applied' | 'no_change'> {
  let outcome: 'applied' | 'no_change' = 'no_change';
  for (const refund of refunds) {
    const actor = refundActor(refund.metadata, payment.id);
    if (
      (await recordStripeRefund(tx, ctx, payment, { id: refund.id, amount: refund.amount, actor })) ===
      'applied'
    )
      outcome = 'applied';
  }
  if ((await raiseRefundedTotal(tx, payment, total)) === 'applied') outcome = 'applied';
  return outcome;
}

/** charge.refunded events that arrived before this completion: their refunds, and the largest running total. */
async function applyDeferredRefunds(
  tx: UnitOfWork,
  ctx: OperationContext,
  payment: Payment,
  paymentIntentId: string,
) {
  const db = await tx.orm();
  const waiting = await db.stripeEvent.findMany({ where: { outcome: 'deferred', paymentIntentId } });
  if (waiting.length === 0) return;
  const total = Math.max(...waiting.map((e) => e.amountRefunded ?? 0));
  const refunds = new Map<string, ListedRefund>();
  for (const e of waiting)
    for (const r of (e.refunds ?? []) as unknown as ListedRefund[]) refunds.set(r.id, r);
  await recordRefunds(tx, ctx, payment, [...refunds.values()], total);
  await db.stripeEvent.updateMany({
    where: { outcome: 'deferred', paymentIntentId },
    data: { outcome: 'applied', paymentId: payment.id },
  });
}
