// Generated from release-claims.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type ReleaseClaimsParams = [deliveryIds: string[]];

export type ReleaseClaimsRow = Record<string, never>;

/**
 * Gives back claims a stopping worker did not start, so other workers take them at once.
 */
export const releaseClaims = typedSql<ReleaseClaimsParams, ReleaseClaimsRow>({
  name: 'release-claims',
  text: `delete from delivery_claims where delivery_id = any($1::text[])`,
  columns: [],
});
