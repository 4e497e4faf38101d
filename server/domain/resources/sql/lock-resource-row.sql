-- Locks a resource's row until the transaction ends (manage-resources.ts `deleteResource`): a booking
-- placed on it at the same moment either commits first or finds it gone. No row: no such resource.
-- @param tenantId
-- @param resourceId
select id from resources where tenant_id = $1::uuid and id = $2::text for update
