// Generated from mark-relayed.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type MarkRelayedParams = [deliveryIds: string[], attemptBases: number[]];

export type MarkRelayedRow = Record<string, never>;

/**
 * Marks deliveries relayed, each only in the round the relay read it in: a row recovered in the
 * meantime (a new `attempt_base`, `relayed_at` reset) stays unrelayed for the next pass.
 */
export const markRelayed = typedSql<MarkRelayedParams, MarkRelayedRow>({
  name: 'mark-relayed',
  text: `update deliveries d set relayed_at = now()
from unnest($1::text[], $2::int[]) as r(id, attempt_base)
where d.id = r.id and d.attempt_base = r.attempt_base and d.relayed_at is null`,
  columns: [],
});
