// The transactional outbox. Call inside the same transaction as the change the event describes: the
// event row, one delivery row per matching active endpoint and the hand-over to the delivery engine
// commit with the change or not at all. With the worker engine the delivery rows are the worker's
// queue, so nothing can be stranded; with Inngest the relay sends after commit and a sweep re-sends
// events whose `dispatched_at` is still empty (server/delivery/inngest/relay.ts).

import { type EventType, subscriptionMatches } from '@/server/client-safe/event-catalog';
import { Prisma } from '@/server/db/generated/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import { type DeliveryEngine, type DeliveryJob, deliveryEngine } from '@/server/delivery/engine';
import type { EventEnvelope } from '@/server/delivery/envelope';
import { newId } from '@/server/lib/ids';
import { currentTraceparent } from '@/server/lib/tracing';
import { type EventObject, type EventPrevious, validatePayload } from './payloads';

/** One event: its type, and its object (and previous) of that type's schema (payloads.ts). */
export interface RecordEventInput<K extends EventType> {
  tenantId: string;
  type: K;
  object: EventObject<K>;
  previous?: EventPrevious<K>;
  /** The endpoint a `webhook.*` notice is about: it never gets the notice (CONTRACT §12). */
  aboutEndpointId?: string;
}

/**
 * Records the event and one delivery per active endpoint whose subscription matches. The object is
 * checked against its type's schema first: an event that does not match cannot be recorded
 * (InvalidEventPayload, which rolls the caller's transaction back).
 */
export async function recordEvent<K extends EventType>(
  tx: TenantTx,
  input: RecordEventInput<K>,
): Promise<EventEnvelope<EventObject<K>>> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { isActive: true },
    select: { id: true, events: true },
  });
  const targets =
    input.type === 'webhook.test'
      ? []
      : endpoints.filter((e) => e.id !== input.aboutEndpointId && subscriptionMatches(e.events, input.type));
  return (
    await recordEventFor(
      tx,
      input,
      targets.map((e) => e.id),
    )
  ).envelope;
}

/** Writes the event and its deliveries to exactly `endpointIds` (the test action uses one endpoint). */
export async function recordEventFor<K extends EventType>(
  tx: TenantTx,
  input: RecordEventInput<K>,
  endpointIds: string[],
) {
  const data = validatePayload(input.type, input.object, input.previous);
  const id = newId('event');
  const createdAt = new Date();
  const envelope: EventEnvelope<EventObject<K>> = {
    id,
    type: input.type,
    created_at: createdAt.toISOString(),
    tenant_id: input.tenantId,
    api_version: 'v1',
    data: data as EventEnvelope<EventObject<K>>['data'],
  };
  const engine = await deliveryEngine();
  const dispatchedAt = engine.transactional ? createdAt.toISOString() : null;
  const insertEvent = Prisma.sql`insert into events (id, tenant_id, type, payload, created_at, dispatched_at)
    values (${id}, ${input.tenantId}::uuid, ${input.type}, ${JSON.stringify(envelope)}::jsonb,
      ${createdAt.toISOString()}::timestamptz, ${dispatchedAt}::timestamptz)`;
  const deliveryIds = await writeDeliveries(
    tx,
    engine,
    { tenantId: input.tenantId, eventId: id, eventType: input.type, objectId: objectIdOf(data), endpointIds },
    insertEvent,
  );
  return { envelope, deliveryIds };
}

/** `data.object.id` of an event, copied onto its deliveries for the `object_id` filter. */
export function objectIdOf(data: { object: unknown }): string | null {
  const object = data.object as { id?: unknown } | null;
  return typeof object?.id === 'string' ? object.id : null;
}

interface NewDeliveries {
  tenantId: string;
  eventId: string;
  /** The event's type and object id, copied onto each delivery (the list filters read them there). */
  eventType: string;
  objectId: string | null;
  endpointIds: string[];
  resendOfId?: string;
}

/**
 * Delivery rows for one existing event plus their hand-over to the engine, inside the caller's
 * transaction.
 */
export async function createDeliveries(tx: TenantTx, input: NewDeliveries): Promise<string[]> {
  const engine = await deliveryEngine();
  // A resend re-opens the event for the non-transactional relay, which sends its pending deliveries.
  const reopen =
    input.resendOfId && !engine.transactional
      ? Prisma.sql`update events set dispatched_at = null
          where id = ${input.eventId} and tenant_id = ${input.tenantId}::uuid`
      : null;
  return writeDeliveries(tx, engine, input, reopen);
}

/**
 * One statement (one round trip inside the caller's transaction): `first` (the event's insert or
 * re-opening), the delivery rows, and the engine's hand-over of them. Raw SQL, so the tenant is
 * written explicitly on every row.
 */
async function writeDeliveries(
  tx: TenantTx,
  engine: DeliveryEngine,
  input: NewDeliveries,
  first: Prisma.Sql | null,
) {
  const jobs: DeliveryJob[] = input.endpointIds.map((endpointId) => ({
    tenantId: input.tenantId,
    deliveryId: newId('delivery'),
    eventId: input.eventId,
    endpointId,
    attempt: 1,
  }));
  const writes = first ? [first] : [];
  if (jobs.length > 0) {
    const now = new Date().toISOString();
    const ids = jobs.map((j) => j.deliveryId);
    writes.push(Prisma.sql`insert into deliveries
        (id, tenant_id, event_id, event_type, object_id, endpoint_id, resend_of_id, next_attempt_at, traceparent)
      select d.id, ${input.tenantId}::uuid, ${input.eventId}, ${input.eventType}, ${input.objectId}::text,
        d.endpoint_id, ${input.resendOfId ?? null}, ${now}::timestamptz, ${currentTraceparent()}::text
      from unnest(${ids}::text[], ${input.endpointIds}::text[]) as d(id, endpoint_id)`);
  }
  if (writes.length === 0) return [];
  const steps = Prisma.join(
    writes.map((write, i) => Prisma.sql`${Prisma.raw(`write_${i}`)} as (${write})`),
    ', ',
  );
  // Data-modifying CTEs run whether or not the final SELECT reads them.
  await tx.$executeRaw`with ${steps} ${jobs.length > 0 ? engine.handOverSql(jobs) : Prisma.sql`select 1`}`;
  return jobs.map((j) => j.deliveryId);
}

export interface RequeueBatch {
  tenantId: string;
  endpointId: string;
  since: Date;
  until: Date;
  /** Keyset cursor: only deliveries with a larger id (the previous batch's `lastId`). */
  afterId: string;
  limit: number;
}

/**
 * One batch of a recovery (POST /webhooks/{id}/recover), inside the caller's transaction: up to
 * `limit` failed deliveries of the endpoint created in [since, until), in id order after `afterId`,
 * go back to `pending`, due now, as a new round of attempts (`attempt_base` = the attempts they had).
 * They are handed over like new deliveries, in the same statement: the worker is woken; for Inngest
 * their events are re-opened for the relay, which sends one request per delivery and round. The
 * cursor makes each delivery requeued at most once per recovery, even if it fails again meanwhile.
 */
export async function requeueFailedDeliveries(
  tx: TenantTx,
  input: RequeueBatch,
): Promise<{ requeued: number; lastId: string | null }> {
  const engine = await deliveryEngine();
  const tenant = Prisma.sql`${input.tenantId}::uuid`;
  const reopen = engine.transactional
    ? Prisma.sql`select 1`
    : Prisma.sql`update events set dispatched_at = null
        where tenant_id = ${tenant} and id in (select event_id from requeued) and dispatched_at is not null`;
  // The hand-over needs a job only for its shape: the worker's is a NOTIFY, Inngest's wakes the relay.
  const [row] = await tx.$queryRaw<{ requeued: number; last_id: string | null; event_id: string | null }[]>`
    with batch as (
      select id from deliveries
      where tenant_id = ${tenant} and endpoint_id = ${input.endpointId} and id > ${input.afterId}
        and status = 'failed' and created_at >= ${input.since.toISOString()}::timestamptz
        and created_at < ${input.until.toISOString()}::timestamptz
      order by id
      limit ${input.limit}
    ), requeued as (
      update deliveries d set status = 'pending', attempt_base = d.attempt_count, next_attempt_at = now(),
        locked_until = null, updated_at = now()
      from batch where d.id = batch.id and d.tenant_id = ${tenant} and d.status = 'failed'
      returning d.id, d.event_id
    ), reopened as (${reopen})
    select (select count(*) from requeued)::int as requeued, (select max(id) from batch) as last_id,
      (select min(event_id) from requeued) as event_id`;
  if (row.requeued > 0 && row.event_id) {
    const job: DeliveryJob = {
      tenantId: input.tenantId,
      deliveryId: '',
      eventId: row.event_id,
      endpointId: input.endpointId,
      attempt: 1,
    };
    await tx.$executeRaw`${engine.handOverSql([job])}`;
  }
  return { requeued: row.requeued, lastId: row.last_id };
}
