import type { Payment } from '@/server/db/generated/client';
import { transaction } from '@/server/db/unit-of-work';
import { recordAudit } from '@/server/domain/audit/record-audit';
import { inUnit, type OperationContext } from '@/server/domain/context';
import { providerProblem } from '@/server/domain/payment-providers/provider-errors';
import { requireStripeConnection } from '@/server/domain/payment-providers/stripe-connection';
import { Errors } from '@/server/lib/errors';
import { sha256Hex } from '@/server/security/hashing';
import { createRefund } from '@/server/stripe/refunds';
import { getPayment } from './get-payment';
import { raiseRefundedTotal, recordStripeRefund, requestedBy } from './record-refund';
import { transitionPayment } from './transition';

export interface RefundRequest {
  id: string;
  /** Stripe payments: minor units, at most what remains (default: all of it). */
  amount?: number;
}

/**
 * Manual payments: succeeded → refunded in full. Stripe payments: a refund through Stripe of `amount`
 * (default: what remains), recorded as Stripe reports it; the whole amount refunded makes the payment
 * refunded, a part keeps it succeeded with refunded_amount. Either way the refund is audited
 * (`payment.refunded`, details {amount, currency}) and emits payment.refunded, once.
 */
export async function refundPayment(ctx: OperationContext, input: RefundRequest) {
  const payment = await ctx.db.payment.findUnique({ where: { id: input.id } });
  if (!payment) throw Errors.notFound('Payment');
  if (payment.provider === 'manual') {
    if (input.amount !== undefined && input.amount !== payment.amount) {
      throw Errors.validation([
        {
          path: 'amount',
          message: `A manual payment is refunded in full (${payment.amount}), never in part`,
        },
      ]);
    }
    return transaction(ctx, async (tx) => {
      const refunded = await transitionPayment(await inUnit(ctx, tx), {
        id: payment.id,
        to: 'refunded',
        event: 'payment.refunded',
        data: { refundedAmount: payment.amount },
      });
      await recordAudit(tx, ctx, {
        action: 'payment.refunded',
        target: { type: 'payment', id: payment.id },
        details: { amount: payment.amount, currency: payment.currency },
      });
      return refunded;
    });
  }
  return refundThroughStripe(ctx, payment, input);
}

/**
 * The Stripe refund's idempotency key, derived from the refund request and never random, so that a
 * request retried after a lost answer or a failure on our side is replayed by Stripe, not refunded
 * twice: from the caller's Idempotency-Key when given (two different keys are two refunds), else from
 * the amount already refunded when the request came (a retry finds the same amount until the first
 * one is recorded).
 */
function refundIdempotencyKey(payment: { id: string; refundedAmount: number }, requestKey?: string) {
  return requestKey
    ? `switchboard-refund-${payment.id}-key-${sha256Hex(requestKey).slice(0, 32)}`
    : `switchboard-refund-${payment.id}-after-${payment.refundedAmount}`;
}

async function refundThroughStripe(ctx: OperationContext, payment: Payment, input: RefundRequest) {
  if (payment.status !== 'succeeded') {
    throw Errors.invalidTransition(`A ${payment.status} payment cannot be refunded`);
  }
  const remaining = payment.amount - payment.refundedAmount;
  const amount = input.amount ?? remaining;
  if (amount > remaining) {
    throw Errors.validation([
      { path: 'amount', message: `At most ${remaining} of ${payment.amount} remains to be refunded` },
    ]);
  }
  if (!payment.stripePaymentIntentId) {
    throw Errors.invalidTransition(
      'Stripe has not named the PaymentIntent that paid it, so it cannot be refunded here',
    );
  }
  const stripe = await requireStripeConnection(ctx);
  const result = await createRefund(stripe.secretKey, {
    paymentIntentId: payment.stripePaymentIntentId,
    amount,
    // The caller's Idempotency-Key (ctx.requestKey), when it sent one.
    idempotencyKey: refundIdempotencyKey(payment, ctx.requestKey),
    metadata: { tenant_id: ctx.tenantId, payment_id: payment.id, requested_by: requestedBy(ctx.actor) },
  });
  if (!result.ok) {
    const { failure } = result;
    // Our ledger was behind Stripe's (a refund made elsewhere whose webhook has not arrived yet).
    if (
      failure.kind === 'refused' &&
      ['amount_too_large', 'charge_already_refunded'].includes(failure.code ?? '')
    ) {
      throw Errors.validation([{ path: 'amount', message: `Stripe refused the refund: ${failure.message}` }]);
    }
    throw providerProblem(failure);
  }
  await transaction(ctx, async (tx) => {
    // Once by its id: a replay by Stripe (the same idempotency key) or its webhook's echo finds it.
    await recordStripeRefund(tx, ctx, payment, { id: result.refundId, amount: result.amount });
    if (result.refundedTotal !== undefined) await raiseRefundedTotal(tx, payment, result.refundedTotal);
  });
  return getPayment(ctx, { id: payment.id });
}
