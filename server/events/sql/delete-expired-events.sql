-- One batch of event retention (../retention.ts): the oldest events past the retention that have no
-- pending delivery, with their deliveries and attempts (foreign keys cascade). SKIP LOCKED keeps the
-- batches of several instances apart. `= any (array(…))`: a key lookup in any plan; `in (select …)`
-- planned generically (the statement is named, server/db/statement-names.ts) scanned the whole table.
-- @cross-tenant retention is a maintenance pass over every tenant's events
-- @param days
-- @param batch
with doomed as (
  select e.id from events e
  where e.created_at < now() - make_interval(days => $1::int)
    and not exists (select 1 from deliveries d where d.event_id = e.id and d.status = 'pending')
  order by e.created_at
  limit $2::int
  for update skip locked
)
delete from events where id = any (array(select id from doomed))
