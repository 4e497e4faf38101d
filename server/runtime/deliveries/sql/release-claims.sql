-- Gives back claims a stopping worker did not start, so other workers take them at once.
-- @param deliveryIds
delete from delivery_claims where delivery_id = any($1::text[])
