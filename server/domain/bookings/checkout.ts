// The seam between a booking of a paid service and its payment. A service with payment "deposit" or
// "full" is booked `pending` with a hold (PAYMENT_HOLD, or the caller's earlier hold_expires_at) and a
// pending Stripe payment whose Checkout Session the customer pays on; Stripe's webhooks then confirm
// or expire the booking (server/domain/payments/checkout-outcome.ts).
//
// The order matters, so that nothing is ever stored that Stripe does not know about and no session
// is left open for a booking that was never stored:
//   1. `openCheckout`, before the booking's transaction, once the slot was found free: the Checkout
//      Session is created at Stripe with the ids the booking and its payment are about to get
//      (409 payment_provider_missing without Stripe, 502 when Stripe is out of reach; nothing stored).
//   2. `startCheckout`, inside the transaction that inserts the booking, right after booking.created:
//      the pending payment and payment.created commit with the booking or not at all.
//   3. `closeCheckout`, when no transaction committed (the slot was taken concurrently, or anything
//      failed): the session is expired at Stripe so no one can pay for a booking that does not exist.
import type { Booking, Service } from '@/server/db/generated/client';
import type { UnitOfWork } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import {
  abandonCheckout,
  type PreparedCheckout,
  prepareCheckout,
  recordCheckoutPayment,
} from '@/server/domain/payments/checkout-payment';
import type { BookingPayment } from './serialize';

/** What a booking of `service` must pay up front: the deposit or the full price; null when nothing. */
export function amountDue(service: Service): { amount: number; currency: string } | null {
  if (service.payment === 'none' || service.priceAmount === null || !service.priceCurrency) return null;
  const amount =
    service.payment === 'deposit' ? (service.depositAmount ?? service.priceAmount) : service.priceAmount;
  return { amount, currency: service.priceCurrency };
}

/**
 * Step 1: the Checkout Session of a booking about to be stored, or null for a free service. What the
 * customer sees on Stripe's page is the service's name (and "Deposit" for a deposit).
 */
export async function openCheckout(
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

/**
 * Step 2, called inside the transaction that created `booking`, after booking.created was recorded:
 * the pending Stripe payment of the prepared session (payment.created). Answers the booking's
 * `payment` (null for a free service).
 */
export async function startCheckout(
  tx: UnitOfWork,
  input: { booking: Pick<Booking, 'id'>; prepared: PreparedCheckout | null },
): Promise<BookingPayment | null> {
  if (!input.prepared) return null;
  if (input.prepared.bookingId !== input.booking.id) {
    throw new Error('startCheckout: the session was prepared for another booking');
  }
  const payment = await recordCheckoutPayment(tx, input.prepared);
  return { id: payment.id, checkout_url: payment.checkout_url };
}

/** Step 3: no booking was stored, so its session must stop taking money. Never throws (logged). */
export async function closeCheckout(ctx: OperationContext, prepared: PreparedCheckout | null): Promise<void> {
  if (prepared) await abandonCheckout(ctx, prepared);
}
