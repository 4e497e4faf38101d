import type { OperationContext } from '@/server/domain/context';
import { envelopeOf } from '@/server/events/envelope';
import { Errors } from '@/server/lib/errors';
import { serializeAttempt, serializeDelivery } from '@/server/webhooks/serialize';

/** One delivery with every attempt (oldest first) and the event payload it carries. */
export async function getDelivery(ctx: OperationContext, input: { id: string }) {
  const { db } = ctx;
  const row = await db.delivery.findUnique({
    where: { id: input.id },
    include: { event: true, attempts: { orderBy: { attemptNumber: 'asc' } } },
  });
  if (!row) throw Errors.notFound('Delivery');
  return {
    ...serializeDelivery(row),
    attempts: row.attempts.map(serializeAttempt),
    event: envelopeOf(row.event),
  };
}
