-- Serialises the timer workers' claims (to the end of the claim's transaction), so each claim counts
-- the timers in flight after the previous claim committed and the per-tenant cap holds across
-- processes. Nothing else takes this lock; the claim that follows may take at most 5 s.
select set_config('statement_timeout', '5000', true) as "statementTimeout",
  pg_advisory_xact_lock(hashtext('switchboard_claim_timers')) as locked
