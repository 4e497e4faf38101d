-- One batch of idempotency-key retention (../idempotency-retention.ts): expired keys with their stored
-- answers, oldest first along the `expires_at` index; SKIP LOCKED keeps several instances apart.
-- @cross-tenant retention is a maintenance pass over every tenant's keys
-- @param batch
with doomed as (
  select tenant_id, key from idempotency_keys
  where expires_at <= now()
  order by expires_at
  limit $1::int
  for update skip locked
)
delete from idempotency_keys k using doomed d where k.tenant_id = d.tenant_id and k.key = d.key
