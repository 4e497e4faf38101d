import type { TenantTx } from '../db/tenant-scope';
import { deliveryEngine } from '../delivery/engine';
import { newId } from '../lib/ids';
import { type EventType, subscriptionMatches } from './catalog';

/**
 * The transactional outbox. Call inside the same transaction as the change the event describes:
 * the event row, one delivery row per matching active endpoint and the hand-over to the delivery
 * engine commit with the change or not at all. With the worker engine the delivery rows are the
 * worker's queue, so nothing can be stranded; with Inngest the relay sends after commit and a
 * sweep re-sends events whose `dispatched_at` is still empty (server/delivery/inngest/relay.ts).
 */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  created_at: string;
  tenant_id: string;
  api_version: 'v1';
  data: { object: T; previous?: Record<string, unknown> };
}

export interface RecordEventInput<T> {
  tenantId: string;
  type: EventType;
  object: T;
  previous?: Record<string, unknown>;
}

export async function recordEvent<T>(tx: TenantTx, input: RecordEventInput<T>): Promise<EventEnvelope<T>> {
  const endpoints = await tx.webhookEndpoint.findMany({ where: { isActive: true }, select: { id: true, events: true } });
  const targets = input.type === 'webhook.test' ? [] : endpoints.filter((e) => subscriptionMatches(e.events, input.type));
  return (
    await recordEventFor(
      tx,
      input,
      targets.map((e) => e.id),
    )
  ).envelope;
}

/** Writes the event and its deliveries to exactly `endpointIds` (the test action uses one endpoint). */
export async function recordEventFor<T>(tx: TenantTx, input: RecordEventInput<T>, endpointIds: string[]) {
  const id = newId('event');
  const createdAt = new Date();
  const envelope: EventEnvelope<T> = {
    id,
    type: input.type,
    created_at: createdAt.toISOString(),
    tenant_id: input.tenantId,
    api_version: 'v1',
    data: input.previous ? { object: input.object, previous: input.previous } : { object: input.object },
  };
  const engine = await deliveryEngine();
  await tx.event.create({
    data: {
      id,
      tenantId: input.tenantId,
      type: input.type,
      payload: envelope as object,
      createdAt,
      dispatchedAt: engine.transactional ? createdAt : null,
    },
  });
  const deliveryIds = await createDeliveries(tx, { tenantId: input.tenantId, eventId: id, endpointIds });
  return { envelope, deliveryIds };
}

/** Delivery rows for one event plus their hand-over to the engine, inside the caller's transaction. */
export async function createDeliveries(
  tx: TenantTx,
  input: { tenantId: string; eventId: string; endpointIds: string[]; resendOfId?: string },
): Promise<string[]> {
  const now = new Date();
  const rows = input.endpointIds.map((endpointId) => ({
    id: newId('delivery'),
    tenantId: input.tenantId,
    eventId: input.eventId,
    endpointId,
    resendOfId: input.resendOfId ?? null,
    nextAttemptAt: now,
  }));
  if (rows.length > 0) await tx.delivery.createMany({ data: rows });
  // A resend re-opens the event for the non-transactional relay, which sends its pending deliveries.
  if (input.resendOfId && rows.length > 0 && !(await deliveryEngine()).transactional) {
    await tx.event.update({ where: { id: input.eventId }, data: { dispatchedAt: null } });
  }
  if (rows.length === 0) return [];
  const engine = await deliveryEngine();
  await engine.enqueue(
    tx,
    rows.map((r) => ({ tenantId: r.tenantId, deliveryId: r.id, eventId: r.eventId, endpointId: r.endpointId, attempt: 1 })),
  );
  return rows.map((r) => r.id);
}
