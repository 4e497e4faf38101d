-- Every block of the resources that can touch a slot of the searched range (find-slots.ts), in one
-- query (the bookings' side is served by the exclusion constraint's GiST index): one row per resource
-- with its blocks as arrays of epoch milliseconds, so thousands of bookings cost a few rows to read.
-- The booking being rescheduled, if any, does not block itself.
-- @param tenantId
-- @param resourceIds
-- @param excludeBookingId
-- @param from
-- @param until
-- @not-null resource_id, froms, untils
select resource_id, array_agg(from_ms) as froms, array_agg(until_ms) as untils from (
  select resource_id, (extract(epoch from blocked_from) * 1000)::float8 as from_ms,
    (extract(epoch from blocked_until) * 1000)::float8 as until_ms
  from bookings
  where tenant_id = $1::uuid and resource_id = any($2::text[])
    and status in ('pending', 'confirmed') and resource_id is not null
    and id <> $3::text
    and tstzrange(blocked_from, blocked_until, '[)') && tstzrange($4::timestamptz, $5::timestamptz, '[)')
  union all
  select resource_id, (extract(epoch from start_at) * 1000)::float8, (extract(epoch from end_at) * 1000)::float8
  from time_off
  where tenant_id = $1::uuid and resource_id = any($2::text[])
    and start_at < $5::timestamptz and end_at > $4::timestamptz
) b group by resource_id
