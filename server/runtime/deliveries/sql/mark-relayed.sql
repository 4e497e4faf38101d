-- Marks deliveries relayed, each only in the round the relay read it in: a row recovered in the
-- meantime (a new `attempt_base`, `relayed_at` reset) stays unrelayed for the next pass.
-- @cross-tenant the relay is one pass over every tenant's deliveries, marked by their ids
-- @param deliveryIds
-- @param attemptBases
update deliveries d set relayed_at = now()
from unnest($1::text[], $2::int[]) as r(id, attempt_base)
where d.id = r.id and d.attempt_base = r.attempt_base and d.relayed_at is null
