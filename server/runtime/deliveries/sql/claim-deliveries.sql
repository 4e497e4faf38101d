-- Claims up to `limit` due deliveries for `leaseMs` milliseconds, fairly, and returns them as
-- attempts need them (one round trip: the claim is also the load; the same columns as
-- attempt/sql/load-delivery.sql), in the order to start them. Fair: a claimed delivery is in flight
-- (it has a row in `delivery_claims`) until its attempt is recorded (or its claim lapses), and no
-- tenant may have more than `perTenant`, no endpoint more than `perEndpoint` in flight, whatever
-- their backlog; within those caps the claim takes one delivery of each tenant in turn (the oldest
-- due of its endpoints, one endpoint after the other), so one tenant's backlog never delays another
-- tenant's deliveries.
-- Run under the claim lock (../claims.ts), so concurrent workers see each other's claims.
-- @cross-tenant the worker claims every tenant's due deliveries, fairly across tenants
-- @param limit
-- @param leaseMs
-- @param perTenant
-- @param perEndpoint
-- @not-null id, tenantId, status, attemptCount, attemptBase, eventId, eventType, payload, endpointId, url, isActive, secretEnc
with recursive held as (
  -- A claim ends when its attempt is recorded; one on a delivery that is no longer pending (ended
  -- another way) holds nothing either. Its delivery is looked up by key: joined, the planner may
  -- read the table's every pending delivery to match a few claims.
  select c.tenant_id, c.endpoint_id from delivery_claims c
  where c.locked_until >= now()
    and (select d.status from deliveries d where d.id = c.delivery_id) = 'pending'
), tenant_held as (
  select tenant_id, count(*)::int as n from held group by tenant_id
), endpoint_held as (
  select endpoint_id, count(*)::int as n from held group by endpoint_id
), endpoints as (
  -- Every endpoint with a due delivery, and its tenant, in one pass over the pending index entries
  -- that skips each endpoint found (a loose index scan of (status, endpoint_id, next_attempt_at)):
  -- its cost is the endpoints with due deliveries and the pending deliveries not yet due, never a
  -- backlog's length.
  (
    select endpoint_id, tenant_id from deliveries
    where status = 'pending' and next_attempt_at <= now()
    order by endpoint_id limit 1
  )
  union all
  select n.endpoint_id, n.tenant_id
  from endpoints e
  cross join lateral (
    select d.endpoint_id, d.tenant_id from deliveries d
    where d.status = 'pending' and d.next_attempt_at <= now() and d.endpoint_id > e.endpoint_id
    order by d.endpoint_id limit 1
  ) n
), room as (
  -- What each endpoint may put in flight now: what its cap and its tenant's leave room for, and no
  -- more than its share of the claim. The turns below go round a tenant's endpoints, so a claim of
  -- `limit` takes at most ceil(limit / endpoints) from each while all have that many due. Without
  -- the share a claim sorted every endpoint's whole room (100 endpoints with 40 due each: 4,000
  -- candidates, 18–37 ms, for 60 taken). An endpoint with fewer due leaves its turns to the next
  -- claim, which the worker makes as soon as an attempt ends.
  select e.endpoint_id, e.tenant_id, $3::int - coalesce(th.n, 0) as tenant_room,
    least($4::int - coalesce(eh.n, 0), $3::int - coalesce(th.n, 0), ($1::int + te.n - 1) / te.n) as endpoint_room
  from endpoints e
  join (select tenant_id, count(*)::int as n from endpoints group by tenant_id) te on te.tenant_id = e.tenant_id
  left join endpoint_held eh on eh.endpoint_id = e.endpoint_id
  left join tenant_held th on th.tenant_id = e.tenant_id
), candidates as (
  -- Each endpoint's oldest due, unclaimed deliveries, as many as its room.
  select c.id, c.tenant_id, c.next_attempt_at, r.tenant_room,
    row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) as endpoint_turn
  from room r
  cross join lateral (
    select d.id, d.tenant_id, d.endpoint_id, d.next_attempt_at from deliveries d
    where d.status = 'pending' and d.endpoint_id = r.endpoint_id and d.next_attempt_at <= now()
      -- Not in flight: a lookup per delivery, in the index's order, so the limit stops the scan.
      -- Written as NOT EXISTS, the planner may hash the endpoint's every due delivery against the
      -- claims instead (it did with a million other deliveries in the statistics).
      and not coalesce((select h.locked_until >= now() from delivery_claims h where h.delivery_id = d.id), false)
    order by d.next_attempt_at
    limit greatest(0, r.endpoint_room)
  ) c
), ranked as (
  -- A tenant's turns go round its endpoints; a turn of each tenant before any tenant's next turn.
  select c.id, c.tenant_id, c.next_attempt_at, c.tenant_room,
    row_number() over (partition by c.tenant_id order by c.endpoint_turn, c.next_attempt_at, c.id) as tenant_turn
  from candidates c
), picked as (
  select r.id, r.tenant_turn, r.next_attempt_at from ranked r
  where r.tenant_turn <= r.tenant_room
  order by r.tenant_turn, r.next_attempt_at, r.id
  limit $1::int
), due as (
  -- Row locks, and a last look at the delivery: an attempt recorded since this statement's snapshot
  -- (by a worker whose claim had lapsed) wins. Claims run one at a time, so no other claim can have
  -- committed since.
  select d.id, d.tenant_id, d.endpoint_id, d.event_id, d.status, d.attempt_count, d.attempt_base,
    d.traceparent, d.next_attempt_at
  from deliveries d
  -- By key alone (`is true` keeps the rest out of any index condition): with a new tenant's rows
  -- missing from the statistics, the planner walked every pending delivery instead.
  where d.id = any (array(select p.id from picked p))
    and (d.status = 'pending' and d.next_attempt_at <= now()) is true
  for update of d skip locked
), claimed as (
  -- A claim of a process that died lapsed and is taken over.
  insert into delivery_claims (delivery_id, tenant_id, endpoint_id, locked_until)
  select due.id, due.tenant_id, due.endpoint_id, now() + $2::int * interval '1 millisecond' from due
  on conflict (delivery_id) do update set locked_until = excluded.locked_until
  returning delivery_id
)
select d.id, d.tenant_id as "tenantId", d.status, d.attempt_count as "attemptCount", d.traceparent,
  d.attempt_base as "attemptBase", e.id as "eventId", e.type as "eventType", e.payload,
  w.id as "endpointId", w.url, w.is_active as "isActive", w.rate_limit_per_second as "rateLimitPerSecond",
  w.secret_enc as "secretEnc", w.previous_secret_enc as "previousSecretEnc",
  w.previous_secret_expires_at as "previousSecretExpiresAt"
from due d
join claimed c on c.delivery_id = d.id
join picked p on p.id = d.id
-- The event by its key, one index lookup per claimed delivery: `offset 0` keeps this a lookup. Joined
-- flat, the planner (which counts on one claimed row) may read the tenant's every event per row: 17 ms
-- instead of 4 for a claim of 30 from a tenant with 1,200 events and the table's statistics not yet
-- refreshed, and claims run one at a time.
cross join lateral (
  select e.id, e.type, e.payload from events e
  where e.id = d.event_id and e.tenant_id = d.tenant_id
  offset 0
) e
join webhook_endpoints w on w.id = d.endpoint_id and w.tenant_id = d.tenant_id
order by p.tenant_turn, d.next_attempt_at, d.id
