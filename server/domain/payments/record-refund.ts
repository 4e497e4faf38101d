// What has been refunded on a payment, as Stripe reports it. Two kinds of fact arrive, each any number
// of times and in any order: one refund, by its Stripe id (our refund's answer, or the refunds Stripe
// lists when its charge.refunded webhook arrives), and the charge's running total. Each refund is
// recorded once by its id (stripe_refunds), with its audit entry (`payment.refunded`, details
// {amount, currency}) and one payment.refunded event; the total only ever rises and adds nothing to
// the audit log or the events (the refunds that make it up do).
import type { UnitOfWork } from '@/server/db/unit-of-work';
import { type AuditActor, recordAudit } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { logger } from '@/server/log';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializePayment } from './serialize';

type RefundedPayment = { id: string; amount: number; currency: string };

/** One refund as Stripe reports it, with who asked for it. */
export interface StripeRefundFact {
  /** Stripe's refund id (re_…). */
  id: string;
  /** Minor units. */
  amount: number;
  /** Who asked; none: the context's actor (the caller of this request, whose address is recorded too). */
  actor?: AuditActor;
}

/**
 * Records one refund, once by its Stripe id, inside the caller's unit of work: the payment's refunded
 * total rises to what its recorded refunds add up to (a whole refund makes it `refunded`), the refund
 * is audited and payment.refunded is emitted. A refund already recorded changes nothing.
 */
export async function recordStripeRefund(
  tx: UnitOfWork,
  ctx: OperationContext,
  payment: RefundedPayment,
  refund: StripeRefundFact,
): Promise<'applied' | 'no_change'> {
  const db = await tx.orm();
  const { count } = await db.stripeRefund.createMany({
    data: [{ tenantId: tx.tenantId, refundId: refund.id, paymentId: payment.id, amount: refund.amount }],
    skipDuplicates: true,
  });
  if (count === 0) return 'no_change';
  const { _sum } = await db.stripeRefund.aggregate({
    where: { paymentId: payment.id },
    _sum: { amount: true },
  });
  await raiseRefundedTotal(tx, payment, _sum.amount ?? refund.amount);
  await recordAudit(tx, ctx, {
    action: 'payment.refunded',
    target: { type: 'payment', id: payment.id },
    details: { amount: refund.amount, currency: payment.currency },
    ...(refund.actor ? { actor: refund.actor } : {}),
  });
  const row = await db.payment.findUniqueOrThrow({ where: { id: payment.id } });
  await recordEvent(tx, { tenantId: tx.tenantId, type: 'payment.refunded', object: serializePayment(row) });
  return 'applied';
}

/**
 * Raises the payment's refunded total to `total` (what Stripe says has been refunded on its charge so
 * far), inside the caller's unit of work; a whole refund makes it `refunded`. The total only ever
 * rises: a repeated or late report of a smaller total changes nothing. Neither audited nor an event:
 * the refunds that make up the total are (recordStripeRefund).
 */
export async function raiseRefundedTotal(
  tx: UnitOfWork,
  payment: { id: string; amount: number },
  total: number,
): Promise<'applied' | 'no_change'> {
  if (total > payment.amount) {
    logger().warn(
      { tenant_id: tx.tenantId, payment_id: payment.id, total, amount: payment.amount },
      'Stripe reports more refunded than the payment: recorded as a full refund',
    );
  }
  const refunded = Math.min(total, payment.amount);
  const full = refunded === payment.amount;
  const [row] = await (await tx.orm()).payment.updateManyAndReturn({
    where: { id: payment.id, status: 'succeeded', refundedAmount: { lt: refunded } },
    data: { refundedAmount: refunded, ...(full ? { status: 'refunded' as const } : {}) },
  });
  return row ? 'applied' : 'no_change';
}

/**
 * Who asked for a refund Stripe lists: a refund made through this API names its requester in its
 * metadata (`requested_by`: usr_…, key_…, or `system`, set by refund-payment.ts and the late-payment
 * refund), so whichever records it first (the answer or the webhook) names the same actor; any other
 * refund was made in Stripe's dashboard or through its API: `{type: 'stripe'}`.
 */
export function refundActor(metadata: Record<string, string> | undefined, paymentId: string): AuditActor {
  const by = metadata?.payment_id === paymentId ? metadata.requested_by : undefined;
  if (by === 'system') return { type: 'system' };
  if (by && /^usr_[0-9A-Z]{26}$/.test(by)) return { type: 'user', id: by };
  if (by && /^key_[0-9A-Z]{26}$/.test(by)) return { type: 'api_key', id: by };
  return { type: 'stripe' };
}

/** What a refund made through this API writes in its metadata, for `refundActor`. */
export function requestedBy(actor: AuditActor): string {
  return actor.type === 'system' || actor.type === 'stripe' ? 'system' : actor.id;
}
