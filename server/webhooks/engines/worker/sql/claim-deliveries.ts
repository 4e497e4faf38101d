// Generated from claim-deliveries.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type ClaimDeliveriesParams = [limit: number, leaseMs: number];

export interface ClaimDeliveriesRow {
  id: string;
  tenantId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  traceparent: string | null;
  attemptBase: number;
  eventId: string;
  eventType: string;
  payload: unknown;
  endpointId: string;
  url: string;
  isActive: boolean;
  rateLimitPerSecond: number | null;
  secretEnc: string;
  previousSecretEnc: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * Claims up to `limit` due deliveries for `leaseMs` milliseconds, oldest due first, and returns them
 * as attempts need them (one round trip: the claim is also the load; the same columns as
 * attempt/sql/load-delivery.sql).
 */
export const claimDeliveries = typedSql<ClaimDeliveriesParams, ClaimDeliveriesRow>({
  name: 'claim-deliveries',
  text: `with due as (
  select id from deliveries
  where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
  order by next_attempt_at
  limit $1::int
  for update skip locked
), claimed as (
  update deliveries d set locked_until = now() + $2::int * interval '1 millisecond'
  from due where d.id = due.id
  returning d.*
)
select d.id, d.tenant_id as "tenantId", d.status, d.attempt_count as "attemptCount", d.traceparent,
  d.attempt_base as "attemptBase", e.id as "eventId", e.type as "eventType", e.payload,
  w.id as "endpointId", w.url, w.is_active as "isActive", w.rate_limit_per_second as "rateLimitPerSecond",
  w.secret_enc as "secretEnc", w.previous_secret_enc as "previousSecretEnc",
  w.previous_secret_expires_at as "previousSecretExpiresAt"
from claimed d
join events e on e.id = d.event_id and e.tenant_id = d.tenant_id
join webhook_endpoints w on w.id = d.endpoint_id and w.tenant_id = d.tenant_id
order by d.next_attempt_at`,
  columns: [
    'id',
    'tenantId',
    'status',
    'attemptCount',
    'traceparent',
    'attemptBase',
    'eventId',
    'eventType',
    'payload',
    'endpointId',
    'url',
    'isActive',
    'rateLimitPerSecond',
    'secretEnc',
    'previousSecretEnc',
    'previousSecretExpiresAt',
  ],
});
