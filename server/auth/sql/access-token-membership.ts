// Generated from access-token-membership.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type AccessTokenMembershipParams = [tenantId: string, userId: string];

export interface AccessTokenMembershipRow {
  role: 'admin' | 'agent';
  tokens_valid_after: Date | null;
}

/**
 * What an access token's request re-reads (principal.ts): the person's role in the token's tenant and
 * when their tokens were last ended. One primary-key lookup and its user row.
 */
export const accessTokenMembership = typedSql<AccessTokenMembershipParams, AccessTokenMembershipRow>({
  name: 'access-token-membership',
  text: `select m.role, u.tokens_valid_after
from memberships m join users u on u.id = m.user_id
where m.tenant_id = $1::uuid and m.user_id = $2::text`,
  columns: ['role', 'tokens_valid_after'],
});
