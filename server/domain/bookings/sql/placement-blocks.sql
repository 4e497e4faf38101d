-- What stands around a booking being placed (placement.ts `loadCandidates`): the pending and
-- confirmed bookings (their blocked intervals) and the time off of the candidate resources that touch
-- [from, until), each with its start (a booking's counts towards its resource's bookings that day).
-- The booking being moved, if any, does not count against itself.
-- @param tenantId
-- @param resourceIds
-- @param excludeBookingId
-- @param from
-- @param until
-- @not-null resource_id, kind, from_at, until_at, start_at
select resource_id, 'booking' as kind, blocked_from as from_at, blocked_until as until_at, start_at
from bookings
where tenant_id = $1::uuid and resource_id = any($2::text[])
  and status in ('pending', 'confirmed') and id <> $3::text
  and tstzrange(blocked_from, blocked_until, '[)') && tstzrange($4::timestamptz, $5::timestamptz, '[)')
union all
select resource_id, 'time_off', start_at, end_at, start_at
from time_off
where tenant_id = $1::uuid and resource_id = any($2::text[])
  and start_at < $5::timestamptz and end_at > $4::timestamptz
