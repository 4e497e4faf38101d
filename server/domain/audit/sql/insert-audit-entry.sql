-- One audit entry (record-audit.ts), in the transaction of the change it records.
-- @param id
-- @param tenantId
-- @param action
-- @param actorType
-- @param actorId?
-- @param targetType
-- @param targetId
-- @param tool?
-- @param details
-- @param ip?
insert into audit_log (id, tenant_id, action, actor_type, actor_id, target_type, target_id, tool, details, ip)
values ($1::text, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::jsonb, $10::text)
