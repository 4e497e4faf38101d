-- Gives back claims a stopping worker did not start, so other workers take them at once.
-- @cross-tenant a stopping worker gives back the claims it holds, of any tenant, by delivery id
-- @param deliveryIds
delete from delivery_claims where delivery_id = any($1::text[])
