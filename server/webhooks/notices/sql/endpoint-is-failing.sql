-- Whether the endpoint meets the auto-disable rule now (active, its failure streak at least `limit`,
-- the first of those failures at least `ageMs` old): one primary-key read, outside any transaction,
-- so the common failed attempt (an endpoint far from the rule) opens none.
-- @param endpointId
-- @param tenantId
-- @param limit
-- @param ageMs
-- @not-null failing
select exists (
  select 1 from webhook_endpoints
  where id = $1 and tenant_id = $2::uuid and is_active
    and failure_streak >= $3::int and failure_streak_since <= now() - $4::int * interval '1 millisecond'
) as failing
