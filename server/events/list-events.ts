import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { paginate } from '@/server/http/pagination';
import { envelopeOf } from '@/server/webhooks/serialize';

/** The tenant's events (the outbox), newest first, as the envelopes receivers get. */
export function listEvents(
  db: TenantDb,
  _tenantId: string,
  input: { limit: number; cursor?: string; type?: string },
) {
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

export async function getEvent(db: TenantDb, _tenantId: string, input: { id: string }) {
  const row = await db.event.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Event');
  return envelopeOf(row);
}
