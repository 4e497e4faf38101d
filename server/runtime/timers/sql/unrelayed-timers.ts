// Generated from unrelayed-timers.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type UnrelayedTimersParams = [limit: number];

export interface UnrelayedTimersRow {
  id: string;
  tenantId: string;
  generation: number;
  dueAt: Date;
}

/**
 * Timer plans whose current generation was not yet handed to Inngest, earliest first (every
 * tenant's: the relay is a cross-tenant pass).
 */
export const unrelayedTimers = typedSql<UnrelayedTimersParams, UnrelayedTimersRow>({
  name: 'unrelayed-timers',
  text: `select id, tenant_id as "tenantId", generation, due_at as "dueAt"
from timers
where fired_at is null and (dispatched_generation is null or dispatched_generation <> generation)
order by due_at
limit $1::int`,
  columns: ['id', 'tenantId', 'generation', 'dueAt'],
});
