-- Locks a person's user row until the transaction ends (add-membership.ts `lockUser`): adding a
-- membership and using a password reset link both take it first.
-- @param userId
select 1 as locked from users where id = $1::text for update
