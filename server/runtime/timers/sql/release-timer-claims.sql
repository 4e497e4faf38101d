-- Gives back claims a stopping worker did not start, so other workers take them at once.
-- @cross-tenant a stopping worker gives back the claims it took, of any tenant
-- @param ids
update timers set locked_until = null
where id = any($1::text[]) and fired_at is null
