-- Serialises the workers' claims (to the end of the claim's transaction), so each claim counts the
-- deliveries in flight after the previous claim committed and the fairness caps hold across
-- processes. A claim takes milliseconds; nothing else takes this lock.
select pg_advisory_xact_lock(hashtext('switchboard_claim_deliveries')) as locked
