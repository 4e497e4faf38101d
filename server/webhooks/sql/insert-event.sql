-- The outbox write of one event (outbox.ts `recordEvent`), in one statement inside the caller's transaction: the
-- event row, one delivery row per endpoint (due now), and the hand-over's NOTIFY if there is any
-- delivery (hand-over.ts). Raw SQL, so the tenant is written explicitly on every row.
-- @param eventId
-- @param tenantId
-- @param type
-- @param payload
-- @param createdAt
-- @param objectId?
-- @param deliveryIds
-- @param endpointIds
-- @param traceparent?
-- @param channel
with event as (
  insert into events (id, tenant_id, type, payload, created_at)
  values ($1, $2::uuid, $3, $4::jsonb, $5::timestamptz)
), deliveries as (
  insert into deliveries (id, tenant_id, event_id, event_type, object_id, endpoint_id, next_attempt_at, traceparent)
  select d.id, $2::uuid, $1, $3, $6, d.endpoint_id, $5::timestamptz, $9
  from unnest($7::text[], $8::text[]) as d(id, endpoint_id)
  returning 1
)
select pg_notify($10, '') as notified from (select 1 from deliveries limit 1) handed_over
