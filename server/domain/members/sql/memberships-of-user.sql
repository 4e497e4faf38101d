-- The tenants a person belongs to (password-resets.ts, remove-member.ts): whether their password, and
-- their dashboard sessions, serve other tenants too.
-- @cross-tenant a person's memberships in every tenant
-- @param userId
select tenant_id::text as tenant_id from memberships where user_id = $1::text
