-- Gives back claims a stopping worker did not start, so other workers take them at once.
-- @param deliveryIds
update deliveries set locked_until = null where id = any($1::text[]) and status = 'pending'
