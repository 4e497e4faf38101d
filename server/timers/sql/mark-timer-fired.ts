// Generated from mark-timer-fired.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type MarkTimerFiredParams = [tenantId: string, id: string, generation: number];

export type MarkTimerFiredRow = Record<string, never>;

/**
 * Marks one timer fired in its handler's transaction (plan.ts `markFired`): changes a row only for the
 * generation the handler was given, and only once (the row lock serialises racers; a re-planned or
 * deleted timer matches nothing).
 */
export const markTimerFired = typedSql<MarkTimerFiredParams, MarkTimerFiredRow>({
  name: 'mark-timer-fired',
  text: `update timers set fired_at = now(), locked_until = null, updated_at = now()
where tenant_id = $1::uuid and id = $2::text and generation = $3::int and fired_at is null`,
  columns: [],
});
