import type { OperationContext } from '@/server/domain/context';
import { transitionBooking } from './transition';

/** confirmed → no_show once start_at has passed (409 before); emits booking.no_show. */
export function markNoShow(ctx: OperationContext, input: { id: string }) {
  return transitionBooking(ctx, {
    id: input.id,
    to: 'no_show',
    event: 'booking.no_show',
    when: { startAt: { lte: new Date() } },
    whenRefusal: 'The booking has not started yet: a no-show can be recorded once start_at has passed',
  });
}
