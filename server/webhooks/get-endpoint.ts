import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { endpointStats } from './endpoint-stats';
import { serializeEndpoint } from './serialize';

/** The endpoint row of this tenant, or 404 (another tenant's id is simply not found). */
export async function findEndpointOr404(db: TenantDb, id: string) {
  const row = await db.webhookEndpoint.findUnique({ where: { id } });
  if (!row) throw Errors.notFound('Webhook endpoint');
  return row;
}

export async function getEndpoint(db: TenantDb, tenantId: string, input: { id: string }) {
  const row = await findEndpointOr404(db, input.id);
  const stats = await endpointStats(db, tenantId, [row.id]);
  return serializeEndpoint(row, stats.get(row.id));
}
