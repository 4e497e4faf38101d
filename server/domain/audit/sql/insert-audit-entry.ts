// Generated from insert-audit-entry.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type InsertAuditEntryParams = [
  id: string,
  tenantId: string,
  action: string,
  actorType: string,
  actorId: string | null,
  targetType: string,
  targetId: string,
  tool: string | null,
  details: string,
  ip: string | null,
];

export type InsertAuditEntryRow = Record<string, never>;

/**
 * One audit entry (record-audit.ts), in the transaction of the change it records.
 */
export const insertAuditEntry = typedSql<InsertAuditEntryParams, InsertAuditEntryRow>({
  name: 'insert-audit-entry',
  text: `insert into audit_log (id, tenant_id, action, actor_type, actor_id, target_type, target_id, tool, details, ip)
values ($1::text, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::jsonb, $10::text)`,
  columns: [],
});
