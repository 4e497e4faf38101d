-- Moves one timer to a new due time from inside its own firing (plan.ts `replanTimer`): a new
-- generation, re-armed, and a NOTIFY (delivered on commit) that wakes the engine.
-- @param tenantId
-- @param id
-- @param dueAt
-- @param channel
with moved as (
  update timers set due_at = $3::timestamptz, generation = generation + 1,
    fired_at = null, locked_until = null, dispatched_generation = null, updated_at = now()
  where tenant_id = $1::uuid and id = $2::text
)
select pg_notify($4::text, '')
