-- One batch of the cleanup of assistant sessions (delete-expired-sessions.ts): the oldest that expired,
-- along the expires_at index; SKIP LOCKED keeps the batches of several instances apart.
-- @cross-tenant a maintenance pass over every tenant's expired sessions
-- @param batch
with doomed as (
  select id from assistant_sessions
  where expires_at <= now()
  order by expires_at
  limit $1::int
  for update skip locked
)
delete from assistant_sessions s using doomed d where s.id = d.id
