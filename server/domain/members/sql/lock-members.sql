-- Locks every membership row of the tenant until the transaction ends (admins.ts `lockMembers`), in
-- one order, so two admins demoting or removing each other at once run one after the other.
-- @param tenantId
select 1 as locked from memberships where tenant_id = $1::uuid order by user_id for update
