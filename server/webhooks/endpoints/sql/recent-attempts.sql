-- Attempts and successes per endpoint over the last 24 h (the endpoint's `recent_success_rate`).
-- @param tenantId
-- @param endpointIds
-- @not-null total, ok
select a.endpoint_id as "endpointId", count(*)::int as total, count(*) filter (where a.succeeded)::int as ok
from delivery_attempts a
where a.tenant_id = $1::uuid and a.endpoint_id = any($2::text[])
  and a.started_at > now() - interval '24 hours'
group by a.endpoint_id
