-- Disables the endpoint if it is active, its failure streak reached `limit` and the first of those
-- failures is at least `ageMs` old. Conditional, so of concurrent callers only one disables it.
-- @param endpointId
-- @param tenantId
-- @param limit
-- @param ageMs
update webhook_endpoints set is_active = false, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
where id = $1 and tenant_id = $2::uuid and is_active
  and failure_streak >= $3::int and failure_streak_since <= now() - $4::int * interval '1 millisecond'
