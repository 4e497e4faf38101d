// The seam between a booking of a paid service and its payment. A service with payment "deposit" or
// "full" is booked `pending` with a hold (PAYMENT_HOLD); the amount due is computed here. Taking the
// money through a provider (a Stripe Checkout Session and its pending payment, created in the
// booking's transaction) plugs into `startCheckout`; until a provider is connected nothing is
// charged and the hold simply expires unless the booking is confirmed.
import type { Booking, Service } from '@/server/db/generated/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import type { OperationContext } from '@/server/domain/context';

/** What a booking of `service` must pay up front: the deposit or the full price; null when nothing. */
export function amountDue(service: Service): { amount: number; currency: string } | null {
  if (service.payment === 'none' || service.priceAmount === null || !service.priceCurrency) return null;
  const amount =
    service.payment === 'deposit' ? (service.depositAmount ?? service.priceAmount) : service.priceAmount;
  return { amount, currency: service.priceCurrency };
}

/**
 * Called inside the transaction that created `booking`, after booking.created was recorded. Returns
 * the amount the customer has to pay (null for a free service); the provider step records the payment
 * and its checkout here.
 */
export async function startCheckout(
  _tx: TenantTx,
  _ctx: OperationContext,
  input: { booking: Booking; service: Service },
): Promise<{ amount: number; currency: string } | null> {
  return amountDue(input.service);
}
