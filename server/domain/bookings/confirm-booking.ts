import type { OperationContext } from '@/server/domain/context';
import { transitionBooking } from './transition';

/**
 * pending → confirmed; emits booking.confirmed and plans the service's reminders. A hold that has
 * ended cannot be confirmed (it expires within seconds, freeing its slot).
 */
export function confirmBooking(ctx: OperationContext, input: { id: string }) {
  return transitionBooking(ctx, {
    id: input.id,
    to: 'confirmed',
    event: 'booking.confirmed',
    when: { OR: [{ holdExpiresAt: null }, { holdExpiresAt: { gt: new Date() } }] },
    whenRefusal: 'The hold on this booking has ended: it expires and its slot is free again',
  });
}
