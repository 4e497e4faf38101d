// The transactional outbox. Call inside the same transaction as the change the event describes: the
// event row, one delivery row per matching active endpoint and the hand-over (./hand-over.ts: the
// rows plus a NOTIFY) commit with the change or not at all. The outbox does not know which engine
// runs the deliveries: each engine reads the rows itself, so nothing committed can be stranded.
import { Prisma } from '@/server/db/generated/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import { type EventType, subscriptionMatches } from '@/server/events/catalog';
import type { EventEnvelope } from '@/server/events/envelope';
import { type EventObject, type EventPrevious, validatePayload } from '@/server/events/payloads';
import { newId } from '@/server/lib/ids';
import { currentTraceparent } from '@/server/lib/tracing';
import { notifyDeliveriesSql } from './hand-over';

/** One event: its type, and its object (and previous) of that type's schema (payloads.ts). */
export interface RecordEventInput<K extends EventType> {
  tenantId: string;
  type: K;
  object: EventObject<K>;
  previous?: EventPrevious<K>;
  /** The endpoint a `webhook.*` notice is about: it never gets the notice (README, "Webhook operations"). */
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
  const insertEvent = Prisma.sql`insert into events (id, tenant_id, type, payload, created_at)
    values (${id}, ${input.tenantId}::uuid, ${input.type}, ${JSON.stringify(envelope)}::jsonb,
      ${createdAt.toISOString()}::timestamptz)`;
  const deliveryIds = await writeDeliveries(
    tx,
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

export interface NewDeliveries {
  tenantId: string;
  eventId: string;
  /** The event's type and object id, copied onto each delivery (the list filters read them there). */
  eventType: string;
  objectId: string | null;
  endpointIds: string[];
  resendOfId?: string;
}

/** Delivery rows for one existing event (a resend) and their hand-over, inside the caller's transaction. */
export function createDeliveries(tx: TenantTx, input: NewDeliveries): Promise<string[]> {
  return writeDeliveries(tx, input, null);
}

/**
 * One statement (one round trip inside the caller's transaction): `first` (the event's insert), the
 * delivery rows, due now, and the NOTIFY that hands them over. Raw SQL, so the tenant is written
 * explicitly on every row.
 */
async function writeDeliveries(tx: TenantTx, input: NewDeliveries, first: Prisma.Sql | null) {
  const ids = input.endpointIds.map(() => newId('delivery'));
  const writes = first ? [first] : [];
  if (ids.length > 0) {
    const now = new Date().toISOString();
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
  await tx.$executeRaw`with ${steps} ${ids.length > 0 ? notifyDeliveriesSql() : Prisma.sql`select 1`}`;
  return ids;
}
