// Generated from lock-timer-claims.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type LockTimerClaimsParams = [];

export interface LockTimerClaimsRow {
  statementTimeout: string | null;
  locked: null;
}

/**
 * Serialises the timer workers' claims (to the end of the claim's transaction), so each claim counts
 * the timers in flight after the previous claim committed and the per-tenant cap holds across
 * processes. Nothing else takes this lock; the claim that follows may take at most 5 s.
 */
export const lockTimerClaims = typedSql<LockTimerClaimsParams, LockTimerClaimsRow>({
  name: 'lock-timer-claims',
  text: `select set_config('statement_timeout', '5000', true) as "statementTimeout",
  pg_advisory_xact_lock(hashtext('switchboard_claim_timers')) as locked`,
  columns: ['statementTimeout', 'locked'],
});
