import { presentBookings } from '@/server/domain/bookings/serialize';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { serializeResource, serializeTimeOff } from './serialize';

/**
 * One resource's calendar for a window: the resource, its bookings starting in [from, to) (every
 * status, so a calendar can show holds, expired holds and no-shows), and its time off overlapping the
 * window. What a day or week calendar view needs in one call.
 */
export async function getResourceSchedule(
  ctx: OperationContext,
  input: { id: string; from: string; to: string },
) {
  const { db } = ctx;
  const from = new Date(input.from);
  const to = new Date(input.to);
  const resource = await db.resource.findUnique({ where: { id: input.id } });
  if (!resource) throw Errors.notFound('Resource');
  const [bookings, timeOff] = await Promise.all([
    db.booking.findMany({
      where: { resourceId: resource.id, startAt: { gte: from, lt: to } },
      orderBy: { startAt: 'asc' },
      take: 2000,
    }),
    db.timeOff.findMany({
      where: { resourceId: resource.id, startAt: { lt: to }, endAt: { gt: from } },
      orderBy: { startAt: 'asc' },
      take: 1000,
    }),
  ]);
  return {
    resource: serializeResource(resource),
    bookings: await presentBookings(db, bookings),
    time_off: timeOff.map(serializeTimeOff),
  };
}
