-- Delivery rows not yet handed to Inngest, oldest first (every tenant's: the relay is a cross-tenant
-- pass), with what a `switchboard/delivery.requested` event needs.
-- @cross-tenant the relay is one pass over every tenant's deliveries
-- @param limit
select id, tenant_id as "tenantId", endpoint_id as "endpointId", event_id as "eventId", status,
  attempt_count as "attemptCount", attempt_base as "attemptBase"
from deliveries
where relayed_at is null
order by id
limit $1::int
