import { mergeIntervals, workingIntervals } from '@/server/domain/availability/engine';
import { type BookingResource, presentBookings } from '@/server/domain/bookings/serialize';
import type { OperationContext } from '@/server/domain/context';
import { AnswerBudget, jsonBytes, MAX_ANSWER_BYTES } from '@/server/lib/answer-size';
import { Errors } from '@/server/lib/errors';
import { serializeResource, serializeTimeOff, weeklyHoursOf } from './serialize';

const DAY = 86_400_000;
/** The longest a booking on a resource can last: a service's duration is at most 1440 minutes. */
const LONGEST_BOOKING = DAY;

/** Bookings read at a time, until the answer is full. */
const CHUNK = 100;

/**
 * One resource's calendar for a window: the resource, its working hours in the window (its weekly hours
 * expanded per local date of its zone, by the same engine as the slot search, so a calendar never
 * re-implements DST rules), its bookings overlapping [from, to) (every status, so a calendar can show
 * holds, expired holds and no-shows; one that starts the evening before still shows), and its time off
 * overlapping the window. What a day or week calendar view needs in one call.
 *
 * Within MAX_ANSWER_BYTES (server/lib/answer-size.ts): bookings and time off are taken together in
 * start order while they fit, so a cut answer (`truncated: true`) holds everything that starts before
 * its cut and nothing after; asking again from the last start listed gives the rest.
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
  const timeOff = (
    await db.timeOff.findMany({
      where: { resourceId: resource.id, startAt: { lt: to }, endAt: { gt: from } },
      orderBy: [{ startAt: 'asc' }, { id: 'asc' }],
      take: 1000,
    })
  ).map(serializeTimeOff);
  const head = {
    resource: serializeResource(resource),
    working_hours: workingHoursIn(resource, from.getTime(), to.getTime()),
  };
  const spent = new AnswerBudget(MAX_ANSWER_BYTES);
  spent.spend(jsonBytes({ ...head, truncated: false, bookings: [], time_off: [] }));
  const bookings: BookingResource[] = [];
  const offs: typeof timeOff = [];
  const takeTimeOffUntil = (startAt: string | null) => {
    while (offs.length < timeOff.length && (startAt === null || timeOff[offs.length].start_at <= startAt)) {
      if (!spent.take(timeOff[offs.length])) return false;
      offs.push(timeOff[offs.length]);
    }
    return true;
  };
  for await (const booking of bookingsOverlapping(ctx, resource.id, from, to)) {
    if (!takeTimeOffUntil(booking.start_at) || !spent.take(booking)) break;
    bookings.push(booking);
  }
  if (!spent.exhausted) takeTimeOffUntil(null);
  return { ...head, truncated: spent.exhausted, bookings, time_off: offs };
}

/** The resource's bookings overlapping [from, to), in start order, read a chunk at a time. */
async function* bookingsOverlapping(ctx: OperationContext, resourceId: string, from: Date, to: Date) {
  let after: { startAt: Date; id: string } | undefined;
  for (;;) {
    const rows = await ctx.db.booking.findMany({
      where: {
        resourceId,
        // Overlapping the window; the lower bound on start_at keeps the scan on the index.
        startAt: { gte: new Date(from.getTime() - LONGEST_BOOKING), lt: to },
        endAt: { gt: from },
        ...(after
          ? { OR: [{ startAt: { gt: after.startAt } }, { startAt: after.startAt, id: { gt: after.id } }] }
          : {}),
      },
      orderBy: [{ startAt: 'asc' }, { id: 'asc' }],
      take: CHUNK,
    });
    yield* await presentBookings(ctx.db, ctx.tenantId, rows);
    if (rows.length < CHUNK) return;
    const last = rows[rows.length - 1];
    after = { startAt: last.startAt, id: last.id };
  }
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
