// The checkout protocol: how a booking of a paid service is paid through a Stripe Checkout Session.
// This folder is its one place: the session's steps here, what Stripe's answers lead to
// (./outcome.ts, applied by Stripe's webhooks in ../apply-stripe-event.ts and by the timers), and the
// calls to Stripe that must follow a committed change exactly once (./timers.ts). The Stripe SDK
// calls themselves are the provider client's (server/stripe/checkout.ts).
//
// A service with payment "deposit" or "full" is booked `pending` with a hold (PAYMENT_HOLD, or the
// caller's earlier hold_expires_at) and a pending Stripe payment whose session the customer pays on.
// The order matters, so that nothing is ever stored that Stripe does not know about and no session is
// left open for a booking that was never stored:
//   1. `openCheckoutFor` (a service's booking; `prepareCheckout` underneath), before the booking's
//      transaction, once the slot was found free: the session, created at Stripe with the ids the
//      booking and its payment are about to get. Nothing is stored yet, so a tenant without Stripe
//      (409 payment_provider_missing) or Stripe out of reach (502) leaves nothing behind.
//   2. `recordCheckoutPayment`, inside the transaction that inserts the booking, right after
//      booking.created (which names it already: `checkoutPaymentOf`): the pending payment and
//      payment.created commit with the booking or not at all.
//   3. `abandonCheckout`, when no transaction committed (the slot was taken concurrently, or anything
//      failed): the session is expired at Stripe so no one can pay for a booking that does not exist.
// `expireCheckout` withdraws the session of a stored payment when its hold runs out first or its
// booking is cancelled (./timers.ts, server/domain/bookings/expire-hold.ts).
import type { Service } from '@/server/db/generated/client';
import type { UnitOfWork } from '@/server/db/unit-of-work';
import type { BookingPayment } from '@/server/domain/bookings/serialize';
import type { OperationContext } from '@/server/domain/context';
import { providerProblem } from '@/server/domain/payment-providers/provider-errors';
import { requireStripeConnection } from '@/server/domain/payment-providers/stripe-connection';
import { newId } from '@/server/lib/ids';
import { logger } from '@/server/log';
import { type CheckoutSession, createCheckoutSession, expireCheckoutSession } from '@/server/stripe/checkout';
import { recordEvent } from '@/server/webhooks/outbox';
import { type PaymentResource, serializePayment } from '../serialize';

export interface CheckoutRequest {
  bookingId: string;
  /** Integer minor units (the deposit or the price). */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** When the booking's hold ends: the session expires then (or at Stripe's 30-minute minimum). */
  holdEndsAt: Date;
  /** What the customer sees on Stripe's page, e.g. the service's name. */
  description: string;
  customerEmail?: string;
}

export interface PreparedCheckout {
  paymentId: string;
  bookingId: string;
  amount: number;
  currency: string;
  createdAt: Date;
  session: CheckoutSession;
}

/** What a booking of `service` must pay up front: the deposit or the full price; null when nothing. */
export function amountDue(service: Service): { amount: number; currency: string } | null {
  if (service.payment === 'none' || service.priceAmount === null || !service.priceCurrency) return null;
  const amount =
    service.payment === 'deposit' ? (service.depositAmount ?? service.priceAmount) : service.priceAmount;
  return { amount, currency: service.priceCurrency };
}

/**
 * Step 1 for a booking of `service` about to be stored: its session, or null for a free service (or
 * a booking without a hold). What the customer sees on Stripe's page is the service's name (and
 * "Deposit" for a deposit).
 */
export async function openCheckoutFor(
  ctx: OperationContext,
  input: { bookingId: string; service: Service; holdEndsAt: Date | null; customerEmail?: string | null },
): Promise<PreparedCheckout | null> {
  const due = amountDue(input.service);
  if (!due || !input.holdEndsAt) return null;
  return prepareCheckout(ctx, {
    bookingId: input.bookingId,
    amount: due.amount,
    currency: due.currency,
    holdEndsAt: input.holdEndsAt,
    description: input.service.payment === 'deposit' ? `Deposit: ${input.service.name}` : input.service.name,
    customerEmail: input.customerEmail ?? undefined,
  });
}

/** The booking's `payment` as it will be once step 2 has recorded it (null for a free service). */
export function checkoutPaymentOf(prepared: PreparedCheckout | null): BookingPayment | null {
  return prepared ? { id: prepared.paymentId, checkout_url: prepared.session.url } : null;
}

/** Step 1: the Checkout Session for a payment that is about to be stored (see the top of this file). */
export async function prepareCheckout(
  ctx: OperationContext,
  request: CheckoutRequest,
): Promise<PreparedCheckout> {
  const stripe = await requireStripeConnection(ctx);
  const paymentId = newId('payment');
  const createdAt = new Date();
  const result = await createCheckoutSession(stripe.secretKey, {
    tenantId: ctx.tenantId,
    bookingId: request.bookingId,
    paymentId,
    amount: request.amount,
    currency: request.currency,
    description: request.description,
    holdEndsAt: request.holdEndsAt,
    createdAt,
    customerEmail: request.customerEmail,
  });
  if (!result.ok) throw providerProblem(result.failure);
  return {
    paymentId,
    bookingId: request.bookingId,
    amount: request.amount,
    currency: request.currency,
    createdAt,
    session: result.session,
  };
}

/** Step 2, in the caller's unit of work: the pending Stripe payment and payment.created. */
export async function recordCheckoutPayment(
  tx: UnitOfWork,
  prepared: PreparedCheckout,
): Promise<PaymentResource> {
  const { tenantId } = tx;
  const row = await (await tx.orm()).payment.create({
    data: {
      id: prepared.paymentId,
      tenantId,
      bookingId: prepared.bookingId,
      amount: prepared.amount,
      currency: prepared.currency,
      provider: 'stripe',
      providerRef: prepared.session.id,
      checkoutUrl: prepared.session.url,
      createdAt: prepared.createdAt,
    },
  });
  const object = serializePayment(row);
  await recordEvent(tx, { tenantId, type: 'payment.created', object });
  return object;
}

/** Step 3: the booking was not stored, so its session must stop taking money. Never throws (logged). */
export async function abandonCheckout(ctx: OperationContext, prepared: PreparedCheckout): Promise<void> {
  try {
    const stripe = await requireStripeConnection(ctx);
    const result = await expireCheckoutSession(stripe.secretKey, prepared.session.id);
    if (!result.ok || result.status === 'complete') {
      // Paid within the moment the booking failed: a person must refund it (it is in Stripe's dashboard).
      logger().error(
        { tenant_id: ctx.tenantId, payment_id: prepared.paymentId, result },
        'could not withdraw the Checkout Session of a booking that was not stored',
      );
    }
  } catch (error) {
    logger().error({ err: error, tenant_id: ctx.tenantId }, 'could not withdraw a Checkout Session');
  }
}

/** What Stripe says of a session we asked it to expire (see `expireCheckoutSession`). */
export type CheckoutClosed =
  | { status: 'expired' }
  | { status: 'complete'; paid: boolean; paymentIntentId: string | null };

/**
 * A stored Stripe payment's session must stop taking money (its hold ran out, or its booking was
 * cancelled): it is expired at Stripe. `complete`: it was paid first (or a delayed payment is settling).
 * 409 payment_provider_missing / 502 payment_provider_unavailable when Stripe cannot be asked. Never
 * call it inside a database transaction: the call to Stripe can take seconds.
 */
export async function expireCheckout(
  ctx: OperationContext,
  payment: { provider: string; providerRef: string | null },
): Promise<CheckoutClosed> {
  if (payment.provider !== 'stripe' || !payment.providerRef) {
    throw new Error('expireCheckout: not a Stripe payment with a Checkout Session');
  }
  const stripe = await requireStripeConnection(ctx);
  const result = await expireCheckoutSession(stripe.secretKey, payment.providerRef);
  if (!result.ok) throw providerProblem(result.failure);
  if (result.status === 'expired') return { status: 'expired' };
  return { status: 'complete', paid: result.paid, paymentIntentId: result.paymentIntentId };
}
