// Generated from retry-timer.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type RetryTimerParams = [id: string, tenantId: string, afterMs: number];

export type RetryTimerRow = Record<string, never>;

/**
 * A timer whose handler failed is claimed again `afterMs` later (a lapsing claim would wait its
 * whole lease).
 */
export const retryTimer = typedSql<RetryTimerParams, RetryTimerRow>({
  name: 'retry-timer',
  text: `update timers set locked_until = now() + $3::int * interval '1 millisecond'
where id = $1 and tenant_id = $2 and fired_at is null`,
  columns: [],
});
