-- Claims up to `limit` due timers for `leaseMs` milliseconds, fairly across tenants, in the order to
-- fire them. A claimed, unfired timer is in flight until its handler marks it fired (or its claim
-- lapses); no tenant may have more than `perTenant` in flight, and the claim takes one timer of each
-- tenant in turn (each tenant's earliest first), so one tenant's backlog of due timers never delays
-- another tenant's. Run under the timer claim lock (./lock-timer-claims.sql), so concurrent workers
-- count each other's claims and the cap holds for the whole database.
-- @cross-tenant the timer worker claims every tenant's due timers, fairly across tenants
-- @param limit
-- @param leaseMs
-- @param perTenant
-- @not-null id, tenantId, kind, subjectId, key, dueAt, generation
with held as (
  -- In flight (or waiting out a failed handler's short retry delay).
  select tenant_id, count(*)::int as n from timers
  where fired_at is null and locked_until >= now()
  group by tenant_id
), tenants as (
  select distinct tenant_id from timers
  where fired_at is null and due_at <= now()
), candidates as (
  select c.id, c.tenant_id, c.due_at,
    (row_number() over (partition by c.tenant_id order by c.due_at, c.id))::int as turn
  from tenants t
  left join held h on h.tenant_id = t.tenant_id
  cross join lateral (
    select x.id, x.tenant_id, x.due_at from timers x
    where x.tenant_id = t.tenant_id and x.fired_at is null and x.due_at <= now()
      and (x.locked_until is null or x.locked_until < now())
    order by x.due_at
    limit greatest(0, $3::int - coalesce(h.n, 0))
  ) c
), picked as (
  select id, turn, due_at from candidates
  order by turn, due_at, id
  limit $1::int
), locked as (
  select t.id from timers t
  where t.id = any (array(select p.id from picked p))
    and (t.fired_at is null and (t.locked_until is null or t.locked_until < now())) is true
  for update of t skip locked
)
update timers t set locked_until = now() + $2::int * interval '1 millisecond'
from locked l, picked p
where t.id = l.id and p.id = l.id
returning t.id, t.tenant_id as "tenantId", t.kind, t.subject_id as "subjectId", t.key, t.due_at as "dueAt",
  t.generation, p.turn
