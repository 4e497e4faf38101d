-- Waits for, then holds until its transaction ends, the advisory lock of `key` (../advisory-lock.ts).
-- @param key
select pg_advisory_xact_lock(hashtextextended($1::text, 0))
