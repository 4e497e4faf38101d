import { eventTypeCondition } from '@/server/client-safe/event-catalog';
import { type Page, paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import { type EventEnvelope, envelopeOf } from '@/server/events/envelope';
import { Errors } from '@/server/lib/errors';

/**
 * The tenant's events (the outbox), newest first, as the envelopes receivers get; with `after`,
 * the events recorded after that one, oldest first (ids are time-ordered), for polling clients.
 */
export async function listEvents(
  ctx: OperationContext,
  input: { limit: number; cursor?: string; type?: string; after?: string },
): Promise<Page<EventEnvelope>> {
  const { db } = ctx;
  // A type, or (from the dashboard's event log) a family such as booking.*.
  const type = input.type ? { type: eventTypeCondition(input.type) } : {};
  if (input.after !== undefined) {
    if (input.cursor !== undefined)
      throw Errors.validation([{ path: 'cursor', message: 'Use either after or cursor, not both' }]);
    const rows = await db.event.findMany({
      where: { id: { gt: input.after }, ...type },
      orderBy: { id: 'asc' },
      take: input.limit,
    });
    return { data: rows.map((row) => envelopeOf(row)), next_cursor: null };
  }
  return paginate(
    input,
    ({ after, take }) =>
      db.event.findMany({
        where: { ...after, ...type },
        orderBy: { id: 'desc' },
        take,
      }),
    (row) => envelopeOf(row),
  );
}

export async function getEvent(ctx: OperationContext, input: { id: string }) {
  const { db } = ctx;
  const row = await db.event.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Event');
  return envelopeOf(row);
}
