// Generated from replan-timer.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type ReplanTimerParams = [tenantId: string, id: string, dueAt: Date | string, channel: string];

export interface ReplanTimerRow {
  pg_notify: null;
}

/**
 * Moves one timer to a new due time from inside its own firing (plan.ts `replanTimer`): a new
 * generation, re-armed, and a NOTIFY (delivered on commit) that wakes the engine.
 */
export const replanTimer = typedSql<ReplanTimerParams, ReplanTimerRow>({
  name: 'replan-timer',
  text: `with moved as (
  update timers set due_at = $3::timestamptz, generation = generation + 1,
    fired_at = null, locked_until = null, dispatched_generation = null, updated_at = now()
  where tenant_id = $1::uuid and id = $2::text
)
select pg_notify($4::text, '')`,
  columns: ['pg_notify'],
});
