// Generated from remove-resource-from-services.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type RemoveResourceFromServicesParams = [tenantId: string, resourceId: string];

export type RemoveResourceFromServicesRow = Record<string, never>;

/**
 * The tenant's services stop offering a deleted resource (manage-resources.ts `deleteResource`).
 */
export const removeResourceFromServices = typedSql<
  RemoveResourceFromServicesParams,
  RemoveResourceFromServicesRow
>({
  name: 'remove-resource-from-services',
  text: `update services set resource_ids = array_remove(resource_ids, $2::text), updated_at = now()
where tenant_id = $1::uuid and $2::text = any(resource_ids)`,
  columns: [],
});
