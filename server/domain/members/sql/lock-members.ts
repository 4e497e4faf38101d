// Generated from lock-members.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type LockMembersParams = [tenantId: string];

export interface LockMembersRow {
  locked: number | null;
}

/**
 * Locks every membership row of the tenant until the transaction ends (admins.ts `lockMembers`), in
 * one order, so two admins demoting or removing each other at once run one after the other.
 */
export const lockMembers = typedSql<LockMembersParams, LockMembersRow>({
  name: 'lock-members',
  text: `select 1 as locked from memberships where tenant_id = $1::uuid order by user_id for update`,
  columns: ['locked'],
});
