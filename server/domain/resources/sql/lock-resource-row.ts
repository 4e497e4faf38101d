// Generated from lock-resource-row.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type LockResourceRowParams = [tenantId: string, resourceId: string];

export interface LockResourceRowRow {
  id: string;
}

/**
 * Locks a resource's row until the transaction ends (manage-resources.ts `deleteResource`): a booking
 * placed on it at the same moment either commits first or finds it gone. No row: no such resource.
 */
export const lockResourceRow = typedSql<LockResourceRowParams, LockResourceRowRow>({
  name: 'lock-resource-row',
  text: `select id from resources where tenant_id = $1::uuid and id = $2::text for update`,
  columns: ['id'],
});
