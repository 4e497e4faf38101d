-- The outbox write of one event (outbox.ts), in one statement inside the caller's transaction: the
-- event row, one delivery row per target endpoint (due now), and the hand-over's NOTIFY if there is
-- any delivery (hand-over.ts). The targets are `endpointIds` when given (the test action), else the
-- tenant's active endpoints whose subscriptions match the type (as subscriptionMatches in the event
-- catalog: `*`, the type itself, or a family `<prefix>.*`), never `aboutEndpointId`: read in the
-- same statement, so an event costs one round trip. Delivery ids are
-- minted by the caller (time-ordered, server/lib/ids.ts) and taken in order; when more endpoints
-- match than ids were given, nothing is written and `needed` says how many to send again. Raw SQL,
-- so the tenant is written explicitly on every row.
-- @param eventId
-- @param tenantId
-- @param type
-- @param payload
-- @param createdAt
-- @param objectId?
-- @param deliveryIds
-- @param endpointIds?
-- @param traceparent?
-- @param channel
-- @param aboutEndpointId?
with targets as (
  select w.id as endpoint_id, row_number() over (order by w.id) as n
  from webhook_endpoints w
  where $8::text[] is null and w.tenant_id = $2::uuid and w.is_active
    and w.id is distinct from $11::text
    and exists (
      select 1 from unnest(w.events) s
      where s = '*' or s = $3 or (s like '%.*' and starts_with($3, left(s, -1)))
    )
  union all
  select e.endpoint_id, e.n from unnest($8::text[]) with ordinality as e(endpoint_id, n)
), fits as (
  select count(*) <= cardinality($7::text[]) as recorded, count(*)::int as needed from targets
), event as (
  insert into events (id, tenant_id, type, payload, created_at)
  select $1, $2::uuid, $3, $4::jsonb, $5::timestamptz from fits where fits.recorded
), deliveries as (
  insert into deliveries (id, tenant_id, event_id, event_type, object_id, endpoint_id, next_attempt_at, traceparent)
  select ($7::text[])[t.n], $2::uuid, $1, $3, $6, t.endpoint_id, $5::timestamptz, $9
  from targets t cross join fits
  where fits.recorded
  returning 1
)
select fits.recorded, fits.needed, (select pg_notify($10, '')::text from deliveries limit 1) as notified
from fits
