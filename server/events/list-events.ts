import { paginate } from '@/server/db/pagination';
import { envelopeOf } from '@/server/delivery/envelope';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';

/** The tenant's events (the outbox), newest first, as the envelopes receivers get. */
export function listEvents(ctx: OperationContext, input: { limit: number; cursor?: string; type?: string }) {
  const { db } = ctx;
  return paginate(
    input,
    ({ after, take }) =>
      db.event.findMany({
        where: { ...after, ...(input.type ? { type: input.type } : {}) },
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
