-- The tenant's services stop offering a deleted resource (manage-resources.ts `deleteResource`).
-- @param tenantId
-- @param resourceId
update services set resource_ids = array_remove(resource_ids, $2::text), updated_at = now()
where tenant_id = $1::uuid and $2::text = any(resource_ids)
