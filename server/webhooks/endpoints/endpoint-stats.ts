import { Prisma } from '@/server/db/generated/client';
import type { OperationContext } from '@/server/domain/context';
import type { EndpointStats } from '@/server/webhooks/serialize';

/** Attempts and success share per endpoint over the last 24 h (the dashboard's "recent success rate"). */
export async function endpointStats(
  ctx: OperationContext,
  endpointIds: string[],
): Promise<Map<string, EndpointStats>> {
  const { db, tenantId } = ctx;
  const stats = new Map<string, EndpointStats>();
  if (endpointIds.length === 0) return stats;
  // Raw SQL is not tenant-scoped by the extension: the tenant filter is explicit here.
  const rows = await db.$queryRaw<{ endpoint_id: string; total: number; ok: number }[]>`
    select d.endpoint_id, count(*)::int as total, count(*) filter (where a.succeeded)::int as ok
    from delivery_attempts a join deliveries d on d.id = a.delivery_id
    where a.tenant_id = ${tenantId}::uuid and d.tenant_id = ${tenantId}::uuid
      and d.endpoint_id in (${Prisma.join(endpointIds)})
      and a.started_at > now() - interval '24 hours'
    group by d.endpoint_id`;
  for (const row of rows) {
    stats.set(row.endpoint_id, {
      recent_attempts: row.total,
      recent_success_rate: row.total ? row.ok / row.total : null,
    });
  }
  return stats;
}
