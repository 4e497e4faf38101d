// The transactional outbox. Call in the unit of work of the change the event describes
// (server/db/unit-of-work.ts, a transaction of either kind): the event row, one delivery row per matching active endpoint and the hand-over (./hand-over.ts: the
// rows plus a NOTIFY) commit with the change or not at all, in one statement (./sql/insert-event.sql). The outbox does not know which engine
// runs the deliveries: each engine reads the rows itself, so nothing committed can be stranded.

import { type EventType, objectIdOf } from '@/server/client-safe/event-catalog';
import { TenantScopeError } from '@/server/db/tenant-scope';
import type { UnitOfWork } from '@/server/db/unit-of-work';
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
  /** The endpoint a `webhook.*` notice is about: it never gets the notice (docs/operations.md, "Webhook operations"). */
  aboutEndpointId?: string;
}

/**
 * Records the event and one delivery per active endpoint whose subscription matches, in one
 * statement (./sql/insert-event.sql selects the endpoints itself). The object is checked against
 * its type's schema first: an event that does not match cannot be recorded (InvalidEventPayload,
 * which rolls the caller's transaction back).
 */
export async function recordEvent<K extends EventType>(
  tx: UnitOfWork,
  input: RecordEventInput<K>,
): Promise<EventEnvelope<EventObject<K>>> {
  // A test event goes only where the test action sends it (recordEventFor), never to subscribers.
  return (await writeEvent(tx, input, input.type === 'webhook.test' ? [] : null)).envelope;
}

/** Writes the event and its deliveries to exactly `endpointIds` (the test action uses one endpoint). */
export function recordEventFor<K extends EventType>(
  tx: UnitOfWork,
  input: RecordEventInput<K>,
  endpointIds: string[],
) {
  return writeEvent(tx, input, endpointIds);
}

/**
 * Delivery ids minted ahead for an event whose endpoints the statement picks: enough for almost every
 * tenant (most have a few endpoints); one with more matching endpoints is written on a second try
 * with as many as the first one counted.
 */
const IDS_AHEAD = 16;

async function writeEvent<K extends EventType>(
  tx: UnitOfWork,
  input: RecordEventInput<K>,
  endpointIds: string[] | null,
) {
  if (input.tenantId !== tx.tenantId)
    throw new TenantScopeError(
      `an event of tenant ${input.tenantId} in tenant ${tx.tenantId}'s unit of work`,
    );
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
  const payload = JSON.stringify(envelope);
  const write = async (count: number) => {
    const deliveryIds = Array.from({ length: count }, () => newId('delivery'));
    const [row] = await insertEvent.rows(
      tx,
      id,
      input.tenantId,
      input.type,
      payload,
      createdAt,
      objectIdOf(data),
      deliveryIds,
      endpointIds,
      currentTraceparent(),
      DELIVERIES_CHANNEL,
      input.aboutEndpointId ?? null,
    );
    return {
      recorded: row.recorded === true,
      deliveryIds: deliveryIds.slice(0, row.needed ?? 0),
      needed: row.needed ?? 0,
    };
  };
  let written = await write(endpointIds ? endpointIds.length : IDS_AHEAD);
  // Room for endpoints another transaction adds between the two statements, too.
  if (!written.recorded) written = await write(written.needed + IDS_AHEAD);
  if (!written.recorded) throw new Error(`event ${id}: its endpoints changed while it was written`);
  return { envelope, deliveryIds: written.deliveryIds };
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

/** Delivery rows for one existing event (a resend) and their hand-over, in the caller's unit of work. */
export async function createDeliveries(tx: UnitOfWork, input: NewDeliveries): Promise<string[]> {
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
