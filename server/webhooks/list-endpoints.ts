import type { TenantDb } from '@/server/db/tenant-scope';
import { paginate } from '@/server/http/pagination';
import { endpointStats } from './endpoint-stats';
import { serializeEndpoint } from './serialize';

export async function listEndpoints(
  db: TenantDb,
  tenantId: string,
  input: { limit: number; cursor?: string },
) {
  const page = await paginate(
    input,
    ({ after, take }) => db.webhookEndpoint.findMany({ where: { ...after }, orderBy: { id: 'desc' }, take }),
    (row) => row,
  );
  const stats = await endpointStats(
    db,
    tenantId,
    page.data.map((e) => e.id),
  );
  return { data: page.data.map((e) => serializeEndpoint(e, stats.get(e.id))), next_cursor: page.next_cursor };
}
