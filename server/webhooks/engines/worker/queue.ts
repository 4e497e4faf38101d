// The worker engine's queue is the deliveries table itself: a pending delivery whose
// `next_attempt_at` has come is due. Workers claim due deliveries with SKIP LOCKED, so any number
// of processes share one database; a claim holds its delivery until `locked_until`, and recording
// the attempt ends it. A claim of a process that died simply lapses, so its deliveries run again
// (at least once, never lost) without any heartbeat or unlock step.
import { DELIVERY_JOINS, LOADED_DELIVERY_COLUMNS } from '@/server/webhooks/attempt/delivery-sql';

/**
 * How long a claim holds its delivery. A worker starts a claimed delivery only while at least
 * `WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS` of the claim remain, so the attempt, its deadline and its
 * record fit inside the claim; a delivery of a dead process runs again within this time.
 */
export const CLAIM_MARGIN_MS = 10_000;
export function claimLeaseMs(timeoutMs: number): number {
  return 2 * (timeoutMs + CLAIM_MARGIN_MS);
}

/**
 * Claims up to $1 due deliveries for $2 milliseconds, oldest due first, and returns them as attempts
 * need them (one round trip: the claim is also the load).
 */
export const CLAIM_SQL = `with due as (
    select id from deliveries
    where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
    order by next_attempt_at
    limit $1
    for update skip locked
  ), claimed as (
    update deliveries d set locked_until = now() + $2 * interval '1 millisecond'
    from due where d.id = due.id
    returning d.*
  )
  select ${LOADED_DELIVERY_COLUMNS}
  from claimed d ${DELIVERY_JOINS}
  order by d.next_attempt_at`;

/** Gives back claims a stopping worker did not start ($1 text[]), so other workers take them at once. */
export const RELEASE_SQL = `update deliveries set locked_until = null where id = any($1::text[]) and status = 'pending'`;
