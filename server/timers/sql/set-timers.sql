-- Makes the timers of `kinds` for one subject exactly the planned ones (plan.ts), in one statement:
-- missing ones are created, moved ones re-armed (new due time, generation + 1, not fired), unchanged
-- ones left alone (a fired one stays fired), the rest deleted. When a timer was created or re-armed,
-- a NOTIFY, delivered on commit, wakes the engine; a plan that changed nothing, or only deleted,
-- wakes nobody. The plans are four parallel arrays (empty when there are none); `keep` is each
-- plan's `kind|key`.
-- @param tenantId
-- @param subjectId
-- @param kinds
-- @param keep
-- @param ids
-- @param planKinds
-- @param keys
-- @param dueAts
-- @param channel
with gone as (
  delete from timers where tenant_id = $1::uuid and subject_id = $2::text
    and kind = any($3::text[]) and not ((kind || '|' || key) = any($4::text[]))
), planned as (
  insert into timers (id, tenant_id, kind, subject_id, key, due_at, updated_at)
  select p.id, $1::uuid, p.kind, $2::text, p.key, p.due, now()
  from unnest($5::text[], $6::text[], $7::text[], $8::timestamptz[]) as p(id, kind, key, due)
  on conflict (kind, subject_id, key) do update set
    due_at = excluded.due_at, generation = timers.generation + 1, fired_at = null,
    locked_until = null, dispatched_generation = null, updated_at = now()
  where timers.due_at <> excluded.due_at
  returning 1
)
select case when exists (select 1 from planned) then pg_notify($9::text, '')::text end as notified
