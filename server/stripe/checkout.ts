// Stripe Checkout Sessions: the one way the service asks a customer for money (a paid booking's
// deposit or price), and the way it withdraws the request when the booking's hold runs out.
import { stripeClient } from './client';
import { type StripeFailure, stripeFailure } from './errors';
import { completedSessionIsPaid } from './webhook-events';

/** Stripe refuses an `expires_at` less than 30 minutes after it creates the session... */
export const CHECKOUT_MIN_LIFETIME_MS = 30 * 60_000;
/** ...or more than 24 hours after. */
export const CHECKOUT_MAX_LIFETIME_MS = 24 * 3_600_000;
/**
 * Kept away from both limits: our clock and Stripe's differ a little, and the request itself takes
 * time (with the SDK's retries, up to about half a minute).
 */
export const CHECKOUT_EXPIRY_MARGIN_MS = 2 * 60_000;

/**
 * The session's `expires_at` (Unix seconds): the hold's end, or, when the hold ends sooner than Stripe
 * allows, Stripe's minimum of 30 minutes after `createdAt` plus the margin (the hold's own expiry then
 * expires the session through Stripe, see `expireCheckoutSession`). Computed from `createdAt` (the
 * payment's creation time, which is stored) rather than the clock, so a retried creation sends the same
 * parameters and Stripe replays the first answer instead of refusing the idempotency key.
 */
export function checkoutSessionExpiresAt(holdEndsAt: Date, createdAt: Date): number {
  const earliest = createdAt.getTime() + CHECKOUT_MIN_LIFETIME_MS + CHECKOUT_EXPIRY_MARGIN_MS;
  const latest = createdAt.getTime() + CHECKOUT_MAX_LIFETIME_MS - CHECKOUT_EXPIRY_MARGIN_MS;
  const at = Math.min(Math.max(holdEndsAt.getTime(), earliest), latest);
  return Math.ceil(at / 1000);
}

/** The Stripe idempotency key of a payment's session: one session per payment, however often asked. */
export const checkoutIdempotencyKey = (paymentId: string) => `switchboard-checkout-${paymentId}`;

export interface CheckoutSessionInput {
  tenantId: string;
  bookingId: string;
  paymentId: string;
  /** Integer minor units, as the payment stores it. */
  amount: number;
  /** ISO 4217, upper case as the payment stores it (sent to Stripe in lower case). */
  currency: string;
  /** What the customer sees on Stripe's page, e.g. the service's name. */
  description: string;
  holdEndsAt: Date;
  /** The payment's creation time (see checkoutSessionExpiresAt). */
  createdAt: Date;
  customerEmail?: string;
  successUrl?: string;
  cancelUrl?: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
  expiresAt: Date;
}

export type CheckoutResult = { ok: true; session: CheckoutSession } | { ok: false; failure: StripeFailure };

/**
 * Creates the Checkout Session for a payment: mode payment, one line of `amount` in `currency`,
 * client_reference_id = the booking, metadata {tenant_id, booking_id, payment_id} (on the session and on
 * its PaymentIntent), expires_at from the hold, idempotency key from the payment id. No
 * payment_method_types: every method the account enables, delayed ones (bank debits) included; those
 * do not extend the hold (server/domain/bookings/expire-hold.ts).
 */
export async function createCheckoutSession(
  secretKey: string,
  input: CheckoutSessionInput,
): Promise<CheckoutResult> {
  const metadata = { tenant_id: input.tenantId, booking_id: input.bookingId, payment_id: input.paymentId };
  try {
    const session = await stripeClient(secretKey).checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.currency.toLowerCase(),
              unit_amount: input.amount,
              product_data: { name: input.description },
            },
          },
        ],
        client_reference_id: input.bookingId,
        metadata,
        payment_intent_data: { metadata },
        expires_at: checkoutSessionExpiresAt(input.holdEndsAt, input.createdAt),
        ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
        ...(input.successUrl ? { success_url: input.successUrl } : {}),
        ...(input.cancelUrl ? { cancel_url: input.cancelUrl } : {}),
      },
      { idempotencyKey: checkoutIdempotencyKey(input.paymentId) },
    );
    if (!session.url) {
      return {
        ok: false,
        failure: {
          kind: 'refused',
          code: undefined,
          message: 'Stripe answered a session without a URL',
          param: undefined,
        },
      };
    }
    return {
      ok: true,
      session: { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) },
    };
  } catch (error) {
    return { ok: false, failure: stripeFailure(error, 'create checkout session') };
  }
}

export type ExpireResult =
  | {
      ok: true;
      /** Nobody can pay it any more (now, or already before). */
      status: 'expired';
    }
  | {
      ok: true;
      /**
       * It was completed first. `paid`: the money is there (payment_status paid or no_payment_required),
       * taken by `paymentIntentId`; not paid: a delayed method (a bank debit) is still settling, and its
       * async_payment_succeeded or async_payment_failed follows.
       */
      status: 'complete';
      paid: boolean;
      paymentIntentId: string | null;
    }
  | { ok: false; failure: StripeFailure };

/**
 * Expires an open Checkout Session so its page stops taking money (a hold ran out). Stripe refuses to
 * expire a session that is no longer open; then the session is read to tell "already expired" from
 * "paid in the meantime".
 */
export async function expireCheckoutSession(secretKey: string, sessionId: string): Promise<ExpireResult> {
  const stripe = stripeClient(secretKey);
  try {
    await stripe.checkout.sessions.expire(
      sessionId,
      {},
      { idempotencyKey: `switchboard-expire-${sessionId}` },
    );
    return { ok: true, status: 'expired' };
  } catch (error) {
    const failure = stripeFailure(error, 'expire checkout session');
    if (failure.kind !== 'refused') return { ok: false, failure };
    try {
      const session = await stripe.checkout.sessions.retrieve(sessionId);
      if (session.status === 'expired') return { ok: true, status: 'expired' };
      if (session.status === 'complete') {
        const intent = session.payment_intent;
        return {
          ok: true,
          status: 'complete',
          paid: completedSessionIsPaid(session.payment_status),
          paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
        };
      }
      return { ok: false, failure };
    } catch (readError) {
      return { ok: false, failure: stripeFailure(readError, 'retrieve checkout session') };
    }
  }
}
