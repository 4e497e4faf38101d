// Generated from revoke-refresh-tokens-of-user.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type RevokeRefreshTokensOfUserParams = [userId: string];

export type RevokeRefreshTokensOfUserRow = Record<string, never>;

/**
 * Revokes every refresh token of the person (password-resets.ts `completePasswordReset`): a new
 * password ends their sessions in every tenant, since the password is theirs.
 */
export const revokeRefreshTokensOfUser = typedSql<
  RevokeRefreshTokensOfUserParams,
  RevokeRefreshTokensOfUserRow
>({
  name: 'revoke-refresh-tokens-of-user',
  text: `update refresh_tokens set revoked_at = now() where user_id = $1::text and revoked_at is null`,
  columns: [],
});
