-- Records attempts, one JSON object each, used by both engines: alone (Inngest, direct calls) or
-- several at once (the worker's batches), in one statement (so one round trip, and no transaction
-- around it). For each record the attempt row is unique per (delivery, number), and only a new row
-- moves its still-pending delivery to its new state (ending the worker's claim: its row in
-- `delivery_claims`) and its endpoint's failure streak (docs/operations.md, "Webhook operations"): a 2xx resets
-- it, a failure adds one (the first sets `failure_streak_since`); within one batch, failures after
-- its last success count. Attempts of the service's own `webhook.*` notices never add to a streak,
-- so a notice can never disable an endpoint. An unchanged streak (a success on a healthy endpoint,
-- the common case) is not written.
-- Returns the attempts that moved their delivery.
-- @cross-tenant the attempts of many tenants' deliveries in one batch (the worker's); each record names its tenant
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
    next_attempt_at = i.next_attempt_at, last_response_status = i.response_status, updated_at = now()
  from attempt a join input i on i.delivery_id = a.delivery_id and i.attempt_number = a.attempt_number
  -- Found by its key alone; the tenant and status are checked, not searched by (`is true` keeps
  -- them out of any index condition). With a new tenant's rows missing from the statistics the
  -- planner walked the tenant's every delivery in (tenant_id, object_id) for each record: 40 ms for
  -- a batch of 8 under load.
  where d.id = a.delivery_id and (d.tenant_id = i.tenant_id and d.status = 'pending') is true
  returning d.id, d.tenant_id, d.endpoint_id, d.attempt_count
), released as (
  delete from delivery_claims c using moved m where c.delivery_id = m.id
), recorded as (
  select m.id as delivery_id, m.tenant_id, m.endpoint_id, i.started_at, i.succeeded,
    coalesce(i.notice, false) as notice
  from moved m join input i on i.delivery_id = m.id and i.attempt_number = m.attempt_count
), counted as (
  select tenant_id, endpoint_id, started_at, succeeded from recorded where succeeded or not notice
), last_ok as (
  select tenant_id, endpoint_id, max(started_at) filter (where succeeded) as ok_at
  from counted group by tenant_id, endpoint_id
), streak as (
  select l.tenant_id, l.endpoint_id, l.ok_at,
    (count(*) filter (where not c.succeeded and (l.ok_at is null or c.started_at > l.ok_at)))::int as fails,
    min(c.started_at) filter (where not c.succeeded and (l.ok_at is null or c.started_at > l.ok_at)) as first_fail
  from last_ok l join counted c on c.tenant_id = l.tenant_id and c.endpoint_id = l.endpoint_id
  group by l.tenant_id, l.endpoint_id, l.ok_at
), streaks as (
  update webhook_endpoints w set
    failure_streak = case when s.ok_at is null then w.failure_streak + s.fails else s.fails end,
    failure_streak_since = case when s.ok_at is null then coalesce(w.failure_streak_since, s.first_fail)
      else s.first_fail end
  from streak s
  where w.id = s.endpoint_id and w.tenant_id = s.tenant_id
    and not (s.ok_at is not null and s.fails = 0 and w.failure_streak = 0 and w.failure_streak_since is null)
)
select r.delivery_id as "deliveryId", r.tenant_id as "tenantId", r.endpoint_id as "endpointId",
  r.started_at as "startedAt", r.succeeded, r.notice
from recorded r
