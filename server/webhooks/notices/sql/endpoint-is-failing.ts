// Generated from endpoint-is-failing.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type EndpointIsFailingParams = [endpointId: string, tenantId: string, limit: number, ageMs: number];

export interface EndpointIsFailingRow {
  failing: boolean;
}

/**
 * Whether the endpoint meets the auto-disable rule now (active, its failure streak at least `limit`,
 * the first of those failures at least `ageMs` old): one primary-key read, outside any transaction,
 * so the common failed attempt (an endpoint far from the rule) opens none.
 */
export const endpointIsFailing = typedSql<EndpointIsFailingParams, EndpointIsFailingRow>({
  name: 'endpoint-is-failing',
  text: `select exists (
  select 1 from webhook_endpoints
  where id = $1 and tenant_id = $2::uuid and is_active
    and failure_streak >= $3::int and failure_streak_since <= now() - $4::int * interval '1 millisecond'
) as failing`,
  columns: ['failing'],
});
