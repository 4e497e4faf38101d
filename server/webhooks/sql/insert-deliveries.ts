// Generated from insert-deliveries.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type InsertDeliveriesParams = [
  tenantId: string,
  eventId: string,
  eventType: string,
  objectId: string | null,
  deliveryIds: string[],
  endpointIds: string[],
  resendOfId: string | null,
  traceparent: string | null,
  channel: string,
];

export interface InsertDeliveriesRow {
  notified: null;
}

/**
 * Delivery rows for an existing event (a resend: `resendOfId`), due now, and the hand-over's NOTIFY,
 * in one statement inside the caller's transaction.
 */
export const insertDeliveries = typedSql<InsertDeliveriesParams, InsertDeliveriesRow>({
  name: 'insert-deliveries',
  text: `with deliveries as (
  insert into deliveries (id, tenant_id, event_id, event_type, object_id, endpoint_id, resend_of_id,
    next_attempt_at, traceparent)
  select d.id, $1::uuid, $2, $3, $4, d.endpoint_id, $7, now(), $8
  from unnest($5::text[], $6::text[]) as d(id, endpoint_id)
  returning 1
)
select pg_notify($9, '') as notified from (select 1 from deliveries limit 1) handed_over`,
  columns: ['notified'],
});
