// Generated from count-open-holds.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type CountOpenHoldsParams = [tenantId: string];

export interface CountOpenHoldsRow {
  open: number;
}

/**
 * The tenant's open holds: pending bookings with a hold (hold-limit.ts counts them against
 * MAX_OPEN_HOLDS_PER_TENANT), read along the (tenant_id, status, id) index.
 */
export const countOpenHolds = typedSql<CountOpenHoldsParams, CountOpenHoldsRow>({
  name: 'count-open-holds',
  text: `select count(*)::int as open from bookings
where tenant_id = $1::uuid and status = 'pending' and hold_expires_at is not null`,
  columns: ['open'],
});
