// Generated from ping.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type PingParams = [];

export interface PingRow {
  ok: number | null;
}

/**
 * The health check's question: does the database answer (server/health.ts).
 */
export const ping = typedSql<PingParams, PingRow>({
  name: 'ping',
  text: `select 1 as ok`,
  columns: ['ok'],
});
