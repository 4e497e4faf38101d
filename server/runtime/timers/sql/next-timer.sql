-- Milliseconds until the next timer can be claimed (0 or less: now), or null when none is planned:
-- the earliest unclaimed timer, or a claimed one whose claim lapses first. Two index range reads
-- (`timers (fired_at, due_at)` stops at the first unclaimed row; the claimed are the few in flight),
-- never a scan of every planned reminder.
-- @cross-tenant the timer worker sleeps until the next timer of any tenant
select (extract(epoch from (least(
  (select due_at from timers
    where fired_at is null and (locked_until is null or locked_until < now())
    order by due_at limit 1),
  (select min(greatest(due_at, locked_until)) from timers
    where fired_at is null and locked_until >= now())
) - now())) * 1000)::float8 as "waitMs"
