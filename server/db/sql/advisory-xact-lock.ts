// Generated from advisory-xact-lock.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type AdvisoryXactLockParams = [key: string];

export interface AdvisoryXactLockRow {
  pg_advisory_xact_lock: null;
}

/**
 * Waits for, then holds until its transaction ends, the advisory lock of `key` (../advisory-lock.ts).
 */
export const advisoryXactLock = typedSql<AdvisoryXactLockParams, AdvisoryXactLockRow>({
  name: 'advisory-xact-lock',
  text: `select pg_advisory_xact_lock(hashtextextended($1::text, 0))`,
  columns: ['pg_advisory_xact_lock'],
});
