import { mergeIntervals, workingIntervals } from '@/server/domain/availability/engine';
import { presentBookings } from '@/server/domain/bookings/serialize';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { serializeResource, serializeTimeOff, weeklyHoursOf } from './serialize';

const DAY = 86_400_000;
/** The longest a booking on a resource can last: a service's duration is at most 1440 minutes. */
const LONGEST_BOOKING = DAY;

/**
 * One resource's calendar for a window: the resource, its working hours in the window (its weekly hours
 * expanded per local date of its zone, by the same engine as the slot search, so a calendar never
 * re-implements DST rules), its bookings overlapping [from, to) (every status, so a calendar can show
 * holds, expired holds and no-shows; one that starts the evening before still shows), and its time off
 * overlapping the window. What a day or week calendar view needs in one call.
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
      where: {
        resourceId: resource.id,
        // Overlapping the window; the lower bound on start_at keeps the scan on the index.
        startAt: { gte: new Date(from.getTime() - LONGEST_BOOKING), lt: to },
        endAt: { gt: from },
      },
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
    working_hours: workingHoursIn(resource, from.getTime(), to.getTime()),
    bookings: await presentBookings(db, ctx.tenantId, bookings),
    time_off: timeOff.map(serializeTimeOff),
  };
}

/** The resource's working intervals overlapping [from, to), merged (touching ones join), clipped to it. */
function workingHoursIn(
  resource: Parameters<typeof weeklyHoursOf>[0] & { id: string; timeZone: string },
  from: number,
  to: number,
) {
  // The local date of an instant in any zone is its UTC date ± 1 (offsets lie within ±14 h).
  const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const intervals = workingIntervals(
    { id: resource.id, timeZone: resource.timeZone, weeklyHours: weeklyHoursOf(resource) },
    utcDate(from - DAY),
    utcDate(to + DAY),
  );
  return mergeIntervals(intervals)
    .map((i) => ({ from: Math.max(i.from, from), until: Math.min(i.until, to) }))
    .filter((i) => i.until > i.from)
    .map((i) => ({ start: new Date(i.from).toISOString(), end: new Date(i.until).toISOString() }));
}
