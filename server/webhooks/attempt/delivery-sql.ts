// What an attempt needs of its delivery `d`, event `e` and endpoint `w` (a `LoadedDelivery` row).
// Shared by the load below and the worker's claim (worker/queue.ts), so both read the same thing.
export const LOADED_DELIVERY_COLUMNS = `d.id, d.tenant_id::text as "tenantId", d.status::text as status, d.attempt_count as "attemptCount",
  d.traceparent, d.attempt_base as "attemptBase", e.id as "eventId", e.type as "eventType", e.payload,
  w.id as "endpointId", w.url, w.is_active as "isActive", w.rate_limit_per_second as "rateLimitPerSecond",
  w.secret_enc as "secretEnc",
  w.previous_secret_enc as "previousSecretEnc", w.previous_secret_expires_at as "previousSecretExpiresAt"`;

export const DELIVERY_JOINS = `join events e on e.id = d.event_id and e.tenant_id = d.tenant_id
  join webhook_endpoints w on w.id = d.endpoint_id and w.tenant_id = d.tenant_id`;

/** One delivery ($1 id, $2 tenant id) as an attempt needs it. */
export const LOAD_DELIVERY_SQL = `select ${LOADED_DELIVERY_COLUMNS}
  from deliveries d ${DELIVERY_JOINS}
  where d.id = $1 and d.tenant_id = $2::uuid`;

/**
 * Records attempts ($1: a JSON array, one object per attempt), used by both engines: alone (Inngest,
 * direct calls) or several at once (the worker's batches, worker/attempt-store.ts). For each record:
 * the attempt row is unique per (delivery, number), and only a new row moves its still-pending
 * delivery to its new state (ending the worker's claim). In the same statement, so in the same
 * transaction, each endpoint's failure streak (README, "Webhook operations") follows the attempts that moved: a 2xx
 * resets it, a failure adds one (the first sets `failure_streak_since`). Attempts of the service's
 * own `webhook.*` notices (`notice`) never add to a streak, so a notice can never disable an
 * endpoint. Within one batch, failures after the batch's last success count. An unchanged streak
 * (a success on a healthy endpoint, the common case) is not written.
 */
export const RECORD_ATTEMPTS_SQL = `with input as (
    select * from json_to_recordset($1::json) as x(id text, tenant_id uuid, delivery_id text, endpoint_id text,
      attempt_number int,
      started_at timestamptz, succeeded boolean, response_status int, latency_ms int, response_excerpt text, error text,
      status "DeliveryStatus", next_attempt_at timestamptz, notice boolean)
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
  ), counted as (
    select m.tenant_id, m.endpoint_id, i.started_at, i.succeeded
    from moved m join input i on i.delivery_id = m.id and i.attempt_number = m.attempt_count
    where i.succeeded or not coalesce(i.notice, false)
  ), last_ok as (
    select tenant_id, endpoint_id, max(started_at) filter (where succeeded) as ok_at
    from counted group by tenant_id, endpoint_id
  ), streak as (
    select l.tenant_id, l.endpoint_id, l.ok_at,
      (count(*) filter (where not c.succeeded and (l.ok_at is null or c.started_at > l.ok_at)))::int as fails,
      min(c.started_at) filter (where not c.succeeded and (l.ok_at is null or c.started_at > l.ok_at)) as first_fail
    from last_ok l join counted c on c.tenant_id = l.tenant_id and c.endpoint_id = l.endpoint_id
    group by l.tenant_id, l.endpoint_id, l.ok_at
  ), streaked as (
    update webhook_endpoints w set
      failure_streak = case when s.ok_at is null then w.failure_streak + s.fails else s.fails end,
      failure_streak_since = case when s.ok_at is null then coalesce(w.failure_streak_since, s.first_fail)
        else s.first_fail end
    from streak s
    where w.id = s.endpoint_id and w.tenant_id = s.tenant_id
      and not (s.ok_at is not null and s.fails = 0 and w.failure_streak = 0 and w.failure_streak_since is null)
    returning w.id
  )
  select coalesce((select array_agg(id) from moved), '{}') as moved, (select count(*) from streaked)::int as streaked`;
