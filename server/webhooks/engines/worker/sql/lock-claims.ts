// Generated from lock-claims.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type LockClaimsParams = [];

export interface LockClaimsRow {
  locked: null;
}

/**
 * Serialises the workers' claims (to the end of the claim's transaction), so each claim counts the
 * deliveries in flight after the previous claim committed and the fairness caps hold across
 * processes. A claim takes milliseconds; nothing else takes this lock.
 */
export const lockClaims = typedSql<LockClaimsParams, LockClaimsRow>({
  name: 'lock-claims',
  text: `select pg_advisory_xact_lock(hashtext('switchboard_claim_deliveries')) as locked`,
  columns: ['locked'],
});
