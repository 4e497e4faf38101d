-- One delivery with its event and endpoint, as an attempt needs them (`LoadedDelivery`). The worker's
-- claim (server/runtime/deliveries/sql/claim-deliveries.sql) returns the same columns, in the same order.
-- @param deliveryId
-- @param tenantId
select d.id, d.tenant_id as "tenantId", d.status, d.attempt_count as "attemptCount", d.traceparent,
  d.attempt_base as "attemptBase", e.id as "eventId", e.type as "eventType", e.payload,
  w.id as "endpointId", w.url, w.is_active as "isActive", w.rate_limit_per_second as "rateLimitPerSecond",
  w.secret_enc as "secretEnc", w.previous_secret_enc as "previousSecretEnc",
  w.previous_secret_expires_at as "previousSecretExpiresAt"
from deliveries d
join events e on e.id = d.event_id and e.tenant_id = d.tenant_id
join webhook_endpoints w on w.id = d.endpoint_id and w.tenant_id = d.tenant_id
where d.id = $1 and d.tenant_id = $2::uuid
