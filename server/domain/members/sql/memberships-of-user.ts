// Generated from memberships-of-user.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type MembershipsOfUserParams = [userId: string];

export interface MembershipsOfUserRow {
  tenant_id: string | null;
}

/**
 * The tenants a person belongs to (password-resets.ts, remove-member.ts): whether their password, and
 * their dashboard sessions, serve other tenants too.
 */
export const membershipsOfUser = typedSql<MembershipsOfUserParams, MembershipsOfUserRow>({
  name: 'memberships-of-user',
  text: `select tenant_id::text as tenant_id from memberships where user_id = $1::text`,
  columns: ['tenant_id'],
});
