import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { envelopeOf, serializeAttempt, serializeDelivery } from './serialize';

/** One delivery with every attempt (oldest first) and the event payload it carries. */
export async function getDelivery(db: TenantDb, _tenantId: string, input: { id: string }) {
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
