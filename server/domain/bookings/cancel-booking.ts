import type { OperationContext } from '@/server/domain/context';
import { withdrawCheckoutsOf } from '@/server/domain/payments/checkout/timers';
import { transitionBooking } from './transition';

/**
 * pending | confirmed → cancelled, keeping the reason; emits booking.cancelled. A pending booking's
 * unpaid Stripe Checkout Session is withdrawn at Stripe after the commit (its payment then fails).
 * Money already taken is not refunded by cancelling: refunds are explicit (POST /payments/{id}/refund).
 */
export function cancelBooking(ctx: OperationContext, input: { id: string; reason?: string | null }) {
  return transitionBooking(
    ctx,
    { id: input.id, to: 'cancelled', event: 'booking.cancelled', cancellationReason: input.reason ?? null },
    (tx) => withdrawCheckoutsOf(tx, input.id),
  );
}
