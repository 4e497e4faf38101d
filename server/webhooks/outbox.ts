// The transactional outbox. Call inside the same transaction as the change the event describes: the
// event row, one delivery row per matching active endpoint and the hand-over (./hand-over.ts: the
// rows plus a NOTIFY) commit with the change or not at all, in one statement (./sql/insert-event.sql). The outbox does not know which engine
// runs the deliveries: each engine reads the rows itself, so nothing committed can be stranded.

import { type EventType, subscriptionMatches } from '@/server/client-safe/event-catalog';
import type { TenantTx } from '@/server/db/tenant-scope';
import type { EventEnvelope } from '@/server/events/envelope';
import { type EventObject, type EventPrevious, validatePayload } from '@/server/events/payloads';
import { newId } from '@/server/lib/ids';
import { currentTraceparent } from '@/server/lib/tracing';
import { DELIVERIES_CHANNEL } from './hand-over';
import { insertDeliveries } from './sql/insert-deliveries';
import { insertEvent } from './sql/insert-event';

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
  const deliveryIds = endpointIds.map(() => newId('delivery'));
  await insertEvent.execute(
    tx,
    id,
    input.tenantId,
    input.type,
    JSON.stringify(envelope),
    createdAt,
    objectIdOf(data),
    deliveryIds,
    endpointIds,
    currentTraceparent(),
    DELIVERIES_CHANNEL,
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
export async function createDeliveries(tx: TenantTx, input: NewDeliveries): Promise<string[]> {
  const ids = input.endpointIds.map(() => newId('delivery'));
  if (ids.length === 0) return [];
  await insertDeliveries.execute(
    tx,
    input.tenantId,
    input.eventId,
    input.eventType,
    input.objectId,
    ids,
    input.endpointIds,
    input.resendOfId ?? null,
    currentTraceparent(),
    DELIVERIES_CHANNEL,
  );
  return ids;
}
