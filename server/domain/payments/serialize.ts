import type { Payment } from '@/server/db/generated/client';

/** A payment as the REST API and event payloads show it. */
export function serializePayment(p: Payment) {
  return {
    id: p.id,
    booking_id: p.bookingId,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    provider: p.provider,
    provider_ref: p.providerRef,
    checkout_url: p.checkoutUrl,
    refunded_amount: p.refundedAmount,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export type PaymentResource = ReturnType<typeof serializePayment>;
