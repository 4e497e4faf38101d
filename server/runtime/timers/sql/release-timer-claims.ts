// Generated from release-timer-claims.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type ReleaseTimerClaimsParams = [ids: string[]];

export type ReleaseTimerClaimsRow = Record<string, never>;

/**
 * Gives back claims a stopping worker did not start, so other workers take them at once.
 */
export const releaseTimerClaims = typedSql<ReleaseTimerClaimsParams, ReleaseTimerClaimsRow>({
  name: 'release-timer-claims',
  text: `update timers set locked_until = null
where id = any($1::text[]) and fired_at is null`,
  columns: [],
});
