-- Records attempts, one JSON object each, used by both engines: alone (Inngest, direct calls) or
-- several at once (the worker's batches). For each record the attempt row is unique per (delivery,
-- number), and only a new row moves its still-pending delivery to its new state (ending the
-- worker's claim). Returns the attempts that moved their delivery, with what the failure streak
-- needs: update-failure-streak.sql runs next, in the same transaction.
-- @param records
-- @not-null startedAt, succeeded, notice
with input as (
  select * from json_to_recordset($1::json) as x(id text, tenant_id uuid, delivery_id text, endpoint_id text,
    attempt_number int, started_at timestamptz, succeeded boolean, response_status int, latency_ms int,
    response_excerpt text, error text, status "DeliveryStatus", next_attempt_at timestamptz, notice boolean)
), attempt as (
  insert into delivery_attempts (id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded,
    response_status, latency_ms, response_excerpt, error)
  select id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded, response_status,
    latency_ms, response_excerpt, error
  from input
  on conflict (delivery_id, attempt_number) do nothing
  returning delivery_id, attempt_number
), moved as (
  update deliveries d set status = i.status, attempt_count = i.attempt_number, last_attempt_at = i.started_at,
    next_attempt_at = i.next_attempt_at, last_response_status = i.response_status, locked_until = null,
    updated_at = now()
  from attempt a join input i on i.delivery_id = a.delivery_id and i.attempt_number = a.attempt_number
  where d.id = a.delivery_id and d.tenant_id = i.tenant_id and d.status = 'pending'
  returning d.id, d.tenant_id, d.endpoint_id, d.attempt_count
)
select m.id as "deliveryId", m.tenant_id as "tenantId", m.endpoint_id as "endpointId",
  i.started_at as "startedAt", i.succeeded, coalesce(i.notice, false) as notice
from moved m join input i on i.delivery_id = m.id and i.attempt_number = m.attempt_count
