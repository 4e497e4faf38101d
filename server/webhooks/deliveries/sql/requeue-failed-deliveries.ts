// Generated from requeue-failed-deliveries.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type RequeueFailedDeliveriesParams = [
  tenantId: string,
  endpointId: string,
  afterId: string,
  since: Date | string,
  until: Date | string,
  limit: number,
  channel: string,
];

export interface RequeueFailedDeliveriesRow {
  requeued: number;
  lastId: string | null;
  notified: number;
}

/**
 * One batch of a recovery: up to `limit` failed deliveries of the endpoint created in [since, until),
 * in id order after `afterId`, go back to `pending`, due now, as a new round of attempts
 * (`attempt_base` = the attempts they had), not yet relayed, and the hand-over's NOTIFY wakes the
 * engine if any went back. `lastId` is the batch's keyset cursor (null: nothing left).
 */
export const requeueFailedDeliveries = typedSql<RequeueFailedDeliveriesParams, RequeueFailedDeliveriesRow>({
  name: 'requeue-failed-deliveries',
  text: `with batch as (
  select id from deliveries
  where tenant_id = $1::uuid and endpoint_id = $2 and id > $3 and status = 'failed'
    and created_at >= $4::timestamptz and created_at < $5::timestamptz
  order by id
  limit $6::int
), requeued as (
  update deliveries d set status = 'pending', attempt_base = d.attempt_count, next_attempt_at = now(),
    relayed_at = null, updated_at = now()
  from batch where d.id = batch.id and d.tenant_id = $1::uuid and d.status = 'failed'
  returning d.id
), released as (
  -- No worker holds a failed delivery; a claim left from its last round must not count as in flight.
  delete from delivery_claims c using requeued r where c.delivery_id = r.id and c.tenant_id = $1::uuid
), notified as (
  select pg_notify($7, '') from (select 1 from requeued limit 1) any_requeued
)
select (select count(*) from requeued)::int as requeued, (select max(id) from batch) as "lastId",
  (select count(*) from notified)::int as notified`,
  columns: ['requeued', 'lastId', 'notified'],
});
