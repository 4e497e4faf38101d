-- The tenant's open holds: pending bookings with a hold (hold-limit.ts counts them against
-- MAX_OPEN_HOLDS_PER_TENANT), read along the (tenant_id, status, id) index.
-- @param tenantId
-- @not-null open
select count(*)::int as open from bookings
where tenant_id = $1::uuid and status = 'pending' and hold_expires_at is not null
