// Generated from tenant-attempt-buckets.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type TenantAttemptBucketsParams = [
  bucket: string,
  tenantId: string,
  from: Date | string,
  to: Date | string,
];

export interface TenantAttemptBucketsRow {
  start: Date;
  succeeded: number;
  failed: number;
  p50: number | null;
  p95: number | null;
}

/**
 * Every attempt of the tenant started in [from, to), grouped by hour or day (UTC), with exact
 * latency percentiles (the overview): the same index as endpoint-attempt-buckets.sql, every endpoint.
 */
export const tenantAttemptBuckets = typedSql<TenantAttemptBucketsParams, TenantAttemptBucketsRow>({
  name: 'tenant-attempt-buckets',
  text: `select date_trunc($1, a.started_at, 'UTC') as start,
  count(*) filter (where a.succeeded)::int as succeeded,
  count(*) filter (where not a.succeeded)::int as failed,
  percentile_disc(0.5) within group (order by a.latency_ms) as p50,
  percentile_disc(0.95) within group (order by a.latency_ms) as p95
from delivery_attempts a
where a.tenant_id = $2::uuid and a.started_at >= $3::timestamptz and a.started_at < $4::timestamptz
group by 1`,
  columns: ['start', 'succeeded', 'failed', 'p50', 'p95'],
});
