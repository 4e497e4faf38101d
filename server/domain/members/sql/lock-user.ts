// Generated from lock-user.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type LockUserParams = [userId: string];

export interface LockUserRow {
  locked: number | null;
}

/**
 * Locks a person's user row until the transaction ends (add-membership.ts `lockUser`): adding a
 * membership and using a password reset link both take it first.
 */
export const lockUser = typedSql<LockUserParams, LockUserRow>({
  name: 'lock-user',
  text: `select 1 as locked from users where id = $1::text for update`,
  columns: ['locked'],
});
