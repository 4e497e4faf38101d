import type { OperationContext } from '@/server/domain/context';
import { transitionBooking } from './transition';

/** pending → confirmed; emits booking.confirmed. */
export function confirmBooking(ctx: OperationContext, input: { id: string }) {
  return transitionBooking(ctx, { id: input.id, to: 'confirmed', event: 'booking.confirmed' });
}
