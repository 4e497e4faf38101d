// Generated from spend-password-resets.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type SpendPasswordResetsParams = [userId: string];

export type SpendPasswordResetsRow = Record<string, never>;

/**
 * Spends every unused password reset link of the person (add-membership.ts), whichever tenant issued
 * it: their password guards every tenant they belong to, so a link stops guarding only one.
 */
export const spendPasswordResets = typedSql<SpendPasswordResetsParams, SpendPasswordResetsRow>({
  name: 'spend-password-resets',
  text: `update password_resets set used_at = now() where user_id = $1::text and used_at is null`,
  columns: [],
});
