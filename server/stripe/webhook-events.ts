// Inbound Stripe webhooks: the signature check (the official SDK's `constructEvent`, over the raw body)
// and the few facts the service reads from the events it follows, as a small typed union so the domain
// never handles Stripe's objects directly.
import Stripe from 'stripe';
import { z } from 'zod';

/**
 * Whether a completed Checkout Session has its money: Stripe's `payment_status` is `paid`, or
 * `no_payment_required`; `unpaid` is a delayed method (a bank debit) still settling. One rule for the
 * webhook and for the hold's own look at the session (./checkout.ts).
 */
export function completedSessionIsPaid(paymentStatus: string): boolean {
  return paymentStatus !== 'unpaid';
}

/** Stripe's own default: a signature timestamp more than 5 minutes from now is refused (replays). */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

export type VerifiedEvent = { ok: true; event: Stripe.Event } | { ok: false; reason: string };

/** Verifies `Stripe-Signature` against the raw body with the endpoint's signing secret (whsec_…). */
export function verifyStripeEvent(rawBody: string, signature: string | null, secret: string): VerifiedEvent {
  if (!signature) return { ok: false, reason: 'The Stripe-Signature header is missing' };
  try {
    return {
      ok: true,
      event: Stripe.webhooks.constructEvent(rawBody, signature, secret, STRIPE_SIGNATURE_TOLERANCE_SECONDS),
    };
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      return { ok: false, reason: `Stripe-Signature does not verify: ${error.message}` };
    }
    // A correctly signed body that is not JSON (constructEvent parses after verifying).
    if (error instanceof SyntaxError) return { ok: false, reason: 'The signed body is not JSON' };
    throw error;
  }
}

/** The event types the service follows; every other type is acknowledged and ignored. */
export const FOLLOWED_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.expired',
  'checkout.session.async_payment_failed',
  'charge.refunded',
] as const;

const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]);

const Metadata = z
  .record(z.string(), z.string())
  .nullish()
  .transform((m) => m ?? {});

const SessionObject = z.object({
  object: z.literal('checkout.session'),
  id: z.string().min(1),
  payment_status: z.string(),
  payment_intent: idOf.nullish(),
  metadata: Metadata,
});

const ChargeObject = z.object({
  object: z.literal('charge'),
  id: z.string().min(1),
  payment_intent: idOf.nullish(),
  amount_refunded: z.number().int().min(0),
});

/** What a followed event says, in the service's terms. */
export type StripeNotice =
  /** A Checkout Session is paid (completed with payment_status paid, or its delayed payment succeeded). */
  | {
      kind: 'checkout_paid';
      sessionId: string;
      paymentIntentId: string | null;
      metadata: Record<string, string>;
    }
  /** Completed, but the money has not arrived yet (a delayed method): its async_payment_* event follows. */
  | { kind: 'checkout_awaiting_payment'; sessionId: string; metadata: Record<string, string> }
  /** The session expired unpaid, or its delayed payment failed. */
  | { kind: 'checkout_failed'; sessionId: string; metadata: Record<string, string> }
  /** A charge was refunded, in part or in full: `amountRefunded` is its running total. */
  | { kind: 'charge_refunded'; chargeId: string; paymentIntentId: string | null; amountRefunded: number }
  /** A type the service does not follow. */
  | { kind: 'not_followed' }
  /** A followed type whose object lacks what the service reads (logged, acknowledged). */
  | { kind: 'unreadable'; reason: string };

export function readStripeEvent(event: Stripe.Event): StripeNotice {
  const object: unknown = event.data?.object;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const parsed = SessionObject.safeParse(object);
      if (!parsed.success)
        return { kind: 'unreadable', reason: parsed.error.issues[0]?.message ?? 'bad object' };
      const session = parsed.data;
      const base = { sessionId: session.id, metadata: session.metadata };
      if (
        event.type === 'checkout.session.expired' ||
        event.type === 'checkout.session.async_payment_failed'
      ) {
        return { kind: 'checkout_failed', ...base };
      }
      const paid =
        event.type === 'checkout.session.async_payment_succeeded' ||
        completedSessionIsPaid(session.payment_status);
      return paid
        ? { kind: 'checkout_paid', ...base, paymentIntentId: session.payment_intent ?? null }
        : { kind: 'checkout_awaiting_payment', ...base };
    }
    case 'charge.refunded': {
      const parsed = ChargeObject.safeParse(object);
      if (!parsed.success)
        return { kind: 'unreadable', reason: parsed.error.issues[0]?.message ?? 'bad object' };
      const charge = parsed.data;
      return {
        kind: 'charge_refunded',
        chargeId: charge.id,
        paymentIntentId: charge.payment_intent ?? null,
        amountRefunded: charge.amount_refunded,
      };
    }
    default:
      return { kind: 'not_followed' };
  }
}
