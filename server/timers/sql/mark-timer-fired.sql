-- Marks one timer fired in its handler's transaction (plan.ts `markFired`): changes a row only for the
-- generation the handler was given, and only once (the row lock serialises racers; a re-planned or
-- deleted timer matches nothing).
-- @param tenantId
-- @param id
-- @param generation
update timers set fired_at = now(), locked_until = null, updated_at = now()
where tenant_id = $1::uuid and id = $2::text and generation = $3::int and fired_at is null
