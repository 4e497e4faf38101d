// The free times a visitor may pick: GET /slots's answer (server/domain/availability/find-slots.ts),
// without which resource is free. `reschedule_booking_id` offers the times a booking can be moved
// to (its own interval does not count against it), for its manage page.
import { findServiceSlots } from '@/server/domain/availability/find-slots';
import type { OperationContext } from '@/server/domain/context';

export async function findPublicSlots(
  ctx: OperationContext,
  query: {
    service_id: string;
    start: string;
    end: string;
    time_zone: string;
    reschedule_booking_id?: string;
  },
) {
  const found = await findServiceSlots(ctx, query);
  return {
    service_id: found.service_id,
    time_zone: found.time_zone,
    days: Object.fromEntries(
      Object.entries(found.days).map(([day, slots]) => [
        day,
        slots.map((slot) => ({ start: slot.start, end: slot.end })),
      ]),
    ),
  };
}
