// Generated from disable-failing-endpoint.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type DisableFailingEndpointParams = [
  endpointId: string,
  tenantId: string,
  limit: number,
  ageMs: number,
];

export type DisableFailingEndpointRow = Record<string, never>;

/**
 * Disables the endpoint if it is active, its failure streak reached `limit` and the first of those
 * failures is at least `ageMs` old. Conditional, so of concurrent callers only one disables it.
 */
export const disableFailingEndpoint = typedSql<DisableFailingEndpointParams, DisableFailingEndpointRow>({
  name: 'disable-failing-endpoint',
  text: `update webhook_endpoints set is_active = false, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
where id = $1 and tenant_id = $2::uuid and is_active
  and failure_streak >= $3::int and failure_streak_since <= now() - $4::int * interval '1 millisecond'`,
  columns: [],
});
