// What follows when Stripe settles a payment's Checkout Session: the one seam between Stripe's webhooks
// (apply-stripe-event.ts) and the rest of the service. Both run inside the transaction that records the
// Stripe event, so the payment, everything that follows from it, and the event's "applied once" row
// commit together or not at all.
//
// Today they move the payment (and record its event). The booking that the payment belongs to joins
// here: a paid session confirms its booking (or, when the hold expired and the slot was taken since,
// leads to a refund), a failed one expires a still-pending booking. `ctx.db` is the same transaction
// as `tx`, so operations written against an OperationContext join it.
import type { Payment } from '@/server/db/generated/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import type { OperationContext } from '@/server/domain/context';
import { movePayment } from './transition';

/** The session is paid: pending → succeeded, remembering the PaymentIntent (refunds go against it). */
export async function onCheckoutPaid(
  tx: TenantTx,
  ctx: OperationContext,
  payment: Payment,
  paymentIntentId: string | null,
): Promise<'applied' | 'no_change'> {
  const moved = await movePayment(tx, ctx.tenantId, {
    id: payment.id,
    to: 'succeeded',
    event: 'payment.succeeded',
    where: { provider: 'stripe' },
    data: { stripePaymentIntentId: paymentIntentId },
  });
  return moved ? 'applied' : 'no_change';
}

/** The session expired unpaid, or its delayed payment failed: pending → failed. */
export async function onCheckoutFailed(
  tx: TenantTx,
  ctx: OperationContext,
  payment: Payment,
): Promise<'applied' | 'no_change'> {
  const moved = await movePayment(tx, ctx.tenantId, {
    id: payment.id,
    to: 'failed',
    event: 'payment.failed',
    where: { provider: 'stripe' },
  });
  return moved ? 'applied' : 'no_change';
}
