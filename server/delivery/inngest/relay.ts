// The outbox relay for the Inngest engine: events committed with `dispatched_at` empty get one
// `switchboard/delivery.requested` per never-attempted delivery, then are marked dispatched. Run
// after commit (the NOTIFY listener in relay-listener.ts) and by the periodic sweep (functions.ts),
// so a crash between commit and send strands nothing. Inngest deduplicates by event id (= delivery
// id), so the two racing, or a crash after sending and before marking, cannot start a delivery
// twice. Cross-tenant by design: it reads every tenant's outbox.
import { db } from '@/server/db/client';
import { logger } from '@/server/log';
import { DELIVERY_REQUESTED, type DeliveryRequested } from './client';

export interface OutboxBatch {
  eventIds: string[];
  requests: DeliveryRequested[];
}

export async function findUndispatched(limit = 200): Promise<OutboxBatch> {
  const events = await db().event.findMany({
    where: { dispatchedAt: null },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: {
      id: true,
      deliveries: {
        where: { status: 'pending' },
        select: { id: true, tenantId: true, endpointId: true, attemptCount: true, attemptBase: true },
      },
    },
  });
  return {
    eventIds: events.map((e) => e.id),
    // Deliveries not yet attempted in their current round (a new one, or one recovered since).
    requests: events.flatMap((e) =>
      e.deliveries
        .filter((d) => d.attemptCount === d.attemptBase)
        .map((d) => ({
          name: DELIVERY_REQUESTED,
          id: d.attemptBase === 0 ? d.id : `${d.id}~r${d.attemptBase}`,
          data: {
            tenantId: d.tenantId,
            deliveryId: d.id,
            endpointId: d.endpointId,
            eventId: e.id,
            ...(d.attemptBase === 0 ? {} : { attemptBase: d.attemptBase }),
          },
        })),
    ),
  };
}

export async function markDispatched(eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db().event.updateMany({
    where: { id: { in: eventIds }, dispatchedAt: null },
    data: { dispatchedAt: new Date() },
  });
}

const PASS_EVENTS = 200;

/**
 * One relay pass with the given sender, in batches of events until the outbox is empty (a bulk
 * recovery re-opens thousands at once); returns how many delivery requests were sent.
 */
export async function relayOutbox(
  send: (requests: DeliveryRequested[]) => Promise<unknown>,
): Promise<number> {
  let sent = 0;
  for (;;) {
    const batch = await findUndispatched(PASS_EVENTS);
    if (batch.requests.length > 0) await send(batch.requests);
    await markDispatched(batch.eventIds);
    sent += batch.requests.length;
    if (batch.eventIds.length < PASS_EVENTS) break;
  }
  if (sent > 0) logger().debug({ sent }, 'outbox relayed to Inngest');
  return sent;
}
