-- A service's reminders (booking-timers.ts plans them for a confirmed booking of the service).
-- @param tenantId
-- @param serviceId
select reminders from services where tenant_id = $1::uuid and id = $2::text
