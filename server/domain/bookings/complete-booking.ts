import type { OperationContext } from '@/server/domain/context';
import { transitionBooking } from './transition';

/** confirmed → completed; emits booking.completed. */
export function completeBooking(ctx: OperationContext, input: { id: string }) {
  return transitionBooking(ctx, { id: input.id, to: 'completed', event: 'booking.completed' });
}
