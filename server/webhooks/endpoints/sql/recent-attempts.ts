// Generated from recent-attempts.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type RecentAttemptsParams = [tenantId: string, endpointIds: string[]];

export interface RecentAttemptsRow {
  endpointId: string;
  total: number;
  ok: number;
}

/**
 * Attempts and successes per endpoint over the last 24 h (the endpoint's `recent_success_rate`).
 */
export const recentAttempts = typedSql<RecentAttemptsParams, RecentAttemptsRow>({
  name: 'recent-attempts',
  text: `select a.endpoint_id as "endpointId", count(*)::int as total, count(*) filter (where a.succeeded)::int as ok
from delivery_attempts a
where a.tenant_id = $1::uuid and a.endpoint_id = any($2::text[])
  and a.started_at > now() - interval '24 hours'
group by a.endpoint_id`,
  columns: ['endpointId', 'total', 'ok'],
});
