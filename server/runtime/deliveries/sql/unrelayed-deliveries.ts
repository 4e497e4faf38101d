// Generated from unrelayed-deliveries.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type UnrelayedDeliveriesParams = [limit: number];

export interface UnrelayedDeliveriesRow {
  id: string;
  tenantId: string;
  endpointId: string;
  eventId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  attemptBase: number;
}

/**
 * Delivery rows not yet handed to Inngest, oldest first (every tenant's: the relay is a cross-tenant
 * pass), with what a `switchboard/delivery.requested` event needs.
 */
export const unrelayedDeliveries = typedSql<UnrelayedDeliveriesParams, UnrelayedDeliveriesRow>({
  name: 'unrelayed-deliveries',
  text: `select id, tenant_id as "tenantId", endpoint_id as "endpointId", event_id as "eventId", status,
  attempt_count as "attemptCount", attempt_base as "attemptBase"
from deliveries
where relayed_at is null
order by id
limit $1::int`,
  columns: ['id', 'tenantId', 'endpointId', 'eventId', 'status', 'attemptCount', 'attemptBase'],
});
