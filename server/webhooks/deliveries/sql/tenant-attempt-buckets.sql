-- Every attempt of the tenant started in [from, to), grouped by hour or day (UTC), with exact
-- latency percentiles (the overview): the same index as endpoint-attempt-buckets.sql, every endpoint.
-- @param bucket
-- @param tenantId
-- @param from
-- @param to
-- @not-null start, succeeded, failed
select date_trunc($1, a.started_at, 'UTC') as start,
  count(*) filter (where a.succeeded)::int as succeeded,
  count(*) filter (where not a.succeeded)::int as failed,
  percentile_disc(0.5) within group (order by a.latency_ms) as p50,
  percentile_disc(0.95) within group (order by a.latency_ms) as p95
from delivery_attempts a
where a.tenant_id = $2::uuid and a.started_at >= $3::timestamptz and a.started_at < $4::timestamptz
group by 1
