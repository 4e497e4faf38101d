import type { OperationContext } from '@/server/domain/context';
import { transitionBooking } from './transition';

/** pending | confirmed → cancelled, keeping the reason; emits booking.cancelled. */
export function cancelBooking(ctx: OperationContext, input: { id: string; reason?: string | null }) {
  return transitionBooking(ctx, {
    id: input.id,
    to: 'cancelled',
    event: 'booking.cancelled',
    cancellationReason: input.reason ?? null,
  });
}
