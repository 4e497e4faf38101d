-- A timer whose handler failed is claimed again `afterMs` later (a lapsing claim would wait its
-- whole lease).
-- @param id
-- @param tenantId
-- @param afterMs
update timers set locked_until = now() + $3::int * interval '1 millisecond'
where id = $1 and tenant_id = $2 and fired_at is null
