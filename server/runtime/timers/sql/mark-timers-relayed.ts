// Generated from mark-timers-relayed.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type MarkTimersRelayedParams = [ids: string[], generations: number[]];

export type MarkTimersRelayedRow = Record<string, never>;

/**
 * Marks timer plans handed to Inngest, each only for the generation sent: a plan moved meanwhile
 * (generation + 1) stays unrelayed for the next pass.
 */
export const markTimersRelayed = typedSql<MarkTimersRelayedParams, MarkTimersRelayedRow>({
  name: 'mark-timers-relayed',
  text: `update timers t set dispatched_generation = s.generation
from unnest($1::text[], $2::int[]) as s(id, generation)
where t.id = s.id and t.generation = s.generation`,
  columns: [],
});
