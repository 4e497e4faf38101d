import type { Payment } from '@/server/db/generated/client';
import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { providerProblem } from '@/server/domain/payment-providers/provider-errors';
import { requireStripeConnection } from '@/server/domain/payment-providers/stripe-connection';
import { Errors } from '@/server/lib/errors';
import { sha256Hex } from '@/server/security/hashing';
import { createRefund } from '@/server/stripe/refunds';
import { getPayment } from './get-payment';
import { recordRefundedTotal } from './record-refund';
import { transitionPayment } from './transition';

export interface RefundRequest {
  id: string;
  /** Stripe payments: minor units, at most what remains (default: all of it). */
  amount?: number;
}

/**
 * Manual payments: succeeded → refunded in full; emits payment.refunded. Stripe payments: a refund
 * through Stripe of `amount` (default: what remains), recorded as Stripe reports it; the whole amount
 * refunded makes the payment refunded (payment.refunded), a part keeps it succeeded with
 * refunded_amount.
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
    return transitionPayment(ctx, {
      id: payment.id,
      to: 'refunded',
      event: 'payment.refunded',
      data: { refundedAmount: payment.amount },
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
    metadata: { tenant_id: ctx.tenantId, payment_id: payment.id },
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
  const total = result.refundedTotal ?? payment.refundedAmount + amount;
  await transaction(ctx, (tx) => recordRefundedTotal(tx, payment, total));
  return getPayment(ctx, { id: payment.id });
}
