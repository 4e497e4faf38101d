// Generated from lock-claims.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type LockClaimsParams = [];

export interface LockClaimsRow {
  statementTimeout: string | null;
  locked: null;
}

/**
 * Serialises the workers' claims (to the end of the claim's transaction), so each claim counts the
 * deliveries in flight after the previous claim committed and the fairness caps hold across
 * processes. Nothing else takes this lock. The claim that follows may take at most 5 s (a claim takes
 * milliseconds on its indexes; one that cannot, say while an operator rebuilds them, gives up and the
 * worker tries again at its next poll instead of holding every other worker's claims).
 */
export const lockClaims = typedSql<LockClaimsParams, LockClaimsRow>({
  name: 'lock-claims',
  text: `select set_config('statement_timeout', '5000', true) as "statementTimeout",
  pg_advisory_xact_lock(hashtext('switchboard_claim_deliveries')) as locked`,
  columns: ['statementTimeout', 'locked'],
});
