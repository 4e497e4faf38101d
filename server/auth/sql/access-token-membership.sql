-- What an access token's request re-reads (principal.ts): the person's role in the token's tenant and
-- when their tokens were last ended. One primary-key lookup and its user row.
-- @param tenantId
-- @param userId
select m.role, u.tokens_valid_after
from memberships m join users u on u.id = m.user_id
where m.tenant_id = $1::uuid and m.user_id = $2::text
