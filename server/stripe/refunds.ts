// Refunds through Stripe, against the PaymentIntent that paid a Checkout Session.
import type Stripe from 'stripe';
import { stripeClient } from './client';
import { type StripeFailure, stripeFailure } from './errors';

export interface RefundInput {
  paymentIntentId: string;
  /** Integer minor units. */
  amount: number;
  /**
   * Derived from the refund request by the caller, never random: a retried request sends the same key
   * and Stripe replays the first refund instead of making a second one.
   */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export type RefundResult =
  | {
      ok: true;
      refundId: string;
      /** This refund's amount (minor units). */
      amount: number;
      /**
       * Everything refunded on the charge so far, this refund included (the charge's amount_refunded as
       * Stripe answered it): concurrent refunds each see a total that includes themselves, so the
       * largest total seen is the truth. Undefined if Stripe did not expand the charge.
       */
      refundedTotal: number | undefined;
    }
  | { ok: false; failure: StripeFailure };

export async function createRefund(secretKey: string, input: RefundInput): Promise<RefundResult> {
  let refund: Stripe.Refund;
  try {
    refund = await stripeClient(secretKey).refunds.create(
      {
        payment_intent: input.paymentIntentId,
        amount: input.amount,
        metadata: input.metadata,
        expand: ['charge'],
      },
      { idempotencyKey: input.idempotencyKey },
    );
  } catch (error) {
    return { ok: false, failure: stripeFailure(error, 'create refund') };
  }
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return {
      ok: false,
      failure: {
        kind: 'refused',
        code: refund.failure_reason ?? undefined,
        message: `Stripe could not refund: ${refund.failure_reason ?? refund.status}`,
        param: undefined,
      },
    };
  }
  const charge = refund.charge;
  const refundedTotal = charge && typeof charge === 'object' ? charge.amount_refunded : undefined;
  return { ok: true, refundId: refund.id, amount: refund.amount, refundedTotal };
}

/** A refund Stripe lists on a PaymentIntent. */
export interface ListedRefund {
  id: string;
  amount: number;
  metadata: Record<string, string>;
}

/** Refunds listed at most (Stripe pages 100 at a time; a charge with more is far past any real case). */
const MAX_LISTED_REFUNDS = 1_000;

/**
 * The refunds of a PaymentIntent that count towards its charge's amount_refunded (pending or succeeded;
 * not failed or canceled), oldest first.
 */
export async function listRefunds(
  secretKey: string,
  paymentIntentId: string,
): Promise<{ ok: true; refunds: ListedRefund[] } | { ok: false; failure: StripeFailure }> {
  const refunds: ListedRefund[] = [];
  try {
    for await (const refund of stripeClient(secretKey).refunds.list({
      payment_intent: paymentIntentId,
      limit: 100,
    })) {
      if (refund.status !== 'failed' && refund.status !== 'canceled') {
        refunds.push({ id: refund.id, amount: refund.amount, metadata: refund.metadata ?? {} });
      }
      if (refunds.length >= MAX_LISTED_REFUNDS) break;
    }
  } catch (error) {
    return { ok: false, failure: stripeFailure(error, 'list refunds') };
  }
  return { ok: true, refunds: refunds.reverse() };
}
