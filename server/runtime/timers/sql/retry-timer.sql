-- A timer whose handler failed is claimed again `afterMs` later (a lapsing claim would wait its
-- whole lease).
-- @param id
-- @param afterMs
update timers set locked_until = now() + $2::int * interval '1 millisecond'
where id = $1 and fired_at is null
