// GET /slots: the free starts of a service over local dates of a time zone, from data read in two
// queries (the service with its resources; every block of those resources in the range) and the pure
// engine (engine.ts).

import { engineResource } from '@/server/domain/bookings/placement';
import type { OperationContext } from '@/server/domain/context';
import { engineService } from '@/server/domain/services/serialize';
import { AnswerBudget, jsonBytes, MAX_ANSWER_BYTES } from '@/server/lib/answer-size';
import { Errors } from '@/server/lib/errors';
import { findSlots, groupByDay, type Interval, type Slot } from './engine';
import { resourceBlocks } from './sql/resource-blocks';
import { addDays, canonicalTimeZone, datesBetween, daysBetween, startOfDay } from './time-zones';

export const MAX_SLOT_DAYS = 31;
const MINUTE = 60_000;

export interface SlotQuery {
  service_id: string;
  start: string;
  end: string;
  time_zone: string;
  resource_id?: string;
  /** A booking being moved: its own blocked interval does not count (as in the reschedule itself). */
  reschedule_booking_id?: string;
}

export async function findServiceSlots(ctx: OperationContext, query: SlotQuery, now = Date.now()) {
  const zone = canonicalTimeZone(query.time_zone);
  if (!zone) throw Errors.validation([{ path: 'time_zone', message: 'Unknown IANA time zone' }]);
  const span = daysBetween(query.start, query.end);
  if (span < 0) throw Errors.validation([{ path: 'end', message: 'Must not be before start' }]);
  if (span + 1 > MAX_SLOT_DAYS)
    throw Errors.validation([{ path: 'end', message: `At most ${MAX_SLOT_DAYS} days` }]);
  const { db, tenantId } = ctx;
  const service = await db.service.findUnique({ where: { id: query.service_id } });
  if (!service) throw Errors.validation([{ path: 'service_id', message: 'No such service' }]);
  if (query.resource_id && !service.resourceIds.includes(query.resource_id)) {
    throw Errors.validation([{ path: 'resource_id', message: 'Not a resource of this service' }]);
  }
  if (
    query.reschedule_booking_id &&
    !(await db.booking.findUnique({ where: { id: query.reschedule_booking_id }, select: { id: true } }))
  ) {
    throw Errors.validation([{ path: 'reschedule_booking_id', message: 'No such booking' }]);
  }
  const days = datesBetween(query.start, query.end);
  const dayStarts = days.map((d) => startOfDay(d, zone));
  const range: Interval = { from: dayStarts[0], until: startOfDay(addDays(query.end, 1), zone) };
  const ids = query.resource_id ? [query.resource_id] : service.resourceIds;
  const resources = service.isActive
    ? await db.resource.findMany({ where: { id: { in: ids }, isActive: true } })
    : [];
  const windowFrom = new Date(range.from - service.bufferBeforeMinutes * MINUTE);
  const windowUntil = new Date(range.until + (service.durationMinutes + service.bufferAfterMinutes) * MINUTE);
  // Every block of these resources that can touch a slot of the range (./sql/resource-blocks.sql).
  const rows =
    resources.length === 0
      ? []
      : await resourceBlocks.rows(
          db,
          tenantId,
          resources.map((r) => r.id),
          query.reschedule_booking_id ?? '',
          windowFrom,
          windowUntil,
        );
  const byResource = new Map<string, Interval[]>(resources.map((r) => [r.id, []]));
  for (const row of rows) {
    const list = byResource.get(row.resource_id);
    if (!list) continue;
    for (let i = 0; i < row.froms.length; i++)
      list.push({ from: Number(row.froms[i]), until: Number(row.untils[i]) });
  }
  const order = new Map(ids.map((id, i) => [id, i]));
  const slots = findSlots({
    service: engineService(service),
    resources: resources
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
      .map((r) => ({ resource: engineResource(r), blocks: byResource.get(r.id) ?? [] })),
    range,
    now,
  });
  return slotAnswer(
    { service_id: service.id, time_zone: zone },
    groupByDay(slots, days, dayStarts),
    MAX_ANSWER_BYTES,
  );
}

/**
 * The answer within `budget` bytes of JSON: the dates in order with their slots in order, cut at the
 * first slot that does not fit. A cut answer lists the dates up to the cut only (the last one maybe
 * incomplete) and says `truncated: true`; asking again from that date gives the rest.
 */
function slotAnswer(
  head: { service_id: string; time_zone: string },
  grouped: Record<string, Slot[]>,
  budget: number,
) {
  const spent = new AnswerBudget(budget);
  // The answer without a date; `false` is the longer of its two values.
  spent.spend(jsonBytes({ ...head, truncated: false, days: {} }));
  const days: Record<string, { start: string; end: string; resource_ids: string[] }[]> = {};
  for (const [day, list] of Object.entries(grouped)) {
    // `"YYYY-MM-DD":[]` and a comma.
    if (!spent.spend(jsonBytes(day) + 4)) break;
    const out: (typeof days)[string] = [];
    for (const s of list) {
      const slot = {
        start: new Date(s.start).toISOString(),
        end: new Date(s.end).toISOString(),
        resource_ids: s.resourceIds,
      };
      if (!spent.take(slot)) break;
      out.push(slot);
    }
    // A date none of whose slots fit is left out with those after it.
    if (spent.exhausted && out.length === 0 && list.length > 0) break;
    days[day] = out;
    if (spent.exhausted) break;
  }
  return { ...head, truncated: spent.exhausted, days };
}
