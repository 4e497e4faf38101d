// Generated from pending-deliveries.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type PendingDeliveriesParams = [];

export interface PendingDeliveriesRow {
  n: number;
}

/**
 * Deliveries waiting for an attempt, all tenants together (registry.ts's gauge, an operator's
 * figure never labelled by tenant), read along the worker's claim index.
 */
export const pendingDeliveries = typedSql<PendingDeliveriesParams, PendingDeliveriesRow>({
  name: 'pending-deliveries',
  text: `select count(*)::int as n from deliveries where status = 'pending'`,
  columns: ['n'],
});
