import type { OperationContext } from '@/server/domain/context';
import type { EndpointStats } from '@/server/webhooks/serialize';
import { recentAttempts } from './sql/recent-attempts';

/** Attempts and success share per endpoint over the last 24 h (the dashboard's "recent success rate"). */
export async function endpointStats(
  ctx: OperationContext,
  endpointIds: string[],
): Promise<Map<string, EndpointStats>> {
  const { db, tenantId } = ctx;
  const stats = new Map<string, EndpointStats>();
  if (endpointIds.length === 0) return stats;
  // Raw SQL is not tenant-scoped by the extension: the statement names the tenant.
  const rows = await recentAttempts.rows(db, tenantId, endpointIds);
  for (const row of rows) {
    stats.set(row.endpointId, {
      recent_attempts: row.total,
      recent_success_rate: row.total ? row.ok / row.total : null,
    });
  }
  return stats;
}
