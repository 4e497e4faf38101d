// Generated from endpoints-needing-attention.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type EndpointsNeedingAttentionParams = [tenantId: string, streakLimit: number];

export interface EndpointsNeedingAttentionRow {
  id: string;
  url: string;
  is_active: boolean;
  disabled_reason: string | null;
  last_attempt_at: Date | null;
  last_success_at: Date | null;
  failures: number;
}

/**
 * The overview's failing and disabled endpoints (../get-overview.ts): endpoints whose newest attempt
 * failed, and disabled ones, with their streak of consecutive failed attempts (up to `streakLimit`)
 * and their last success. Each lateral reads the attempts index of one endpoint backwards from its
 * newest attempt.
 */
export const endpointsNeedingAttention = typedSql<
  EndpointsNeedingAttentionParams,
  EndpointsNeedingAttentionRow
>({
  name: 'endpoints-needing-attention',
  text: `select e.id, e.url, e.is_active,
  e.disabled_reason::text as disabled_reason,
  newest.started_at as last_attempt_at, success.started_at as last_success_at,
  coalesce(streak.failures, 0)::int as failures
from webhook_endpoints e
left join lateral (
  select a.started_at, a.succeeded from delivery_attempts a
  where a.tenant_id = e.tenant_id and a.endpoint_id = e.id
  order by a.started_at desc limit 1
) newest on true
left join lateral (
  select a.started_at from delivery_attempts a
  where a.tenant_id = e.tenant_id and a.endpoint_id = e.id and a.succeeded
  order by a.started_at desc limit 1
) success on true
left join lateral (
  select count(*) as failures from (
    select 1 from delivery_attempts a
    where a.tenant_id = e.tenant_id and a.endpoint_id = e.id
      and a.started_at > coalesce(success.started_at, '-infinity'::timestamptz)
    order by a.started_at desc limit $2::int
  ) recent
) streak on true
where e.tenant_id = $1::uuid and (not e.is_active or newest.succeeded = false)
order by e.is_active desc, newest.started_at desc nulls last
limit 20`,
  columns: ['id', 'url', 'is_active', 'disabled_reason', 'last_attempt_at', 'last_success_at', 'failures'],
});
