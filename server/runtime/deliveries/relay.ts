// The deliveries' source for the Inngest relay (../relay.ts): delivery rows not yet handed to Inngest
// (`relayed_at` empty) get one `switchboard/delivery.requested` each if their current round has not
// started yet, then are marked relayed. Inngest deduplicates by event id (the delivery id, plus the
// round for a recovered delivery), so two passes racing, or a crash after sending and before
// marking, cannot start a round twice. Cross-tenant by design: it reads every tenant's deliveries.
import { maintenanceDb } from '@/server/db/maintenance';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';
import { DELIVERY_REQUESTED, type DeliveryRequested, type RelaySource } from '../inngest/client';
import { markRelayed as markRelayedSql } from './sql/mark-relayed';
import { unrelayedDeliveries } from './sql/unrelayed-deliveries';

export interface RelayBatch {
  /** Every row read (each is marked relayed, whether or not it needed a request). */
  rows: Array<{ id: string; attemptBase: number }>;
  requests: DeliveryRequested[];
}

export async function findUnrelayed(limit = 500): Promise<RelayBatch> {
  const rows = await unrelayedDeliveries.rows(maintenanceDb(), limit);
  return {
    rows: rows.map((d) => ({ id: d.id, attemptBase: d.attemptBase })),
    // Deliveries not yet attempted in their current round (a new one, or one recovered since).
    requests: rows
      .filter((d) => d.status === 'pending' && d.attemptCount === d.attemptBase)
      .map((d) => ({
        name: DELIVERY_REQUESTED,
        id: d.attemptBase === 0 ? d.id : `${d.id}~r${d.attemptBase}`,
        data: {
          tenantId: d.tenantId,
          deliveryId: d.id,
          endpointId: d.endpointId,
          eventId: d.eventId,
          ...(d.attemptBase === 0 ? {} : { attemptBase: d.attemptBase }),
        },
      })),
  };
}

/**
 * Marks the rows relayed, each only in the round it was read in: a row recovered in the meantime
 * (a new `attempt_base`, `relayed_at` reset) stays unrelayed for the next pass.
 */
export async function markRelayed(rows: RelayBatch['rows']): Promise<void> {
  if (rows.length === 0) return;
  await markRelayedSql.execute(
    maintenanceDb(),
    rows.map((r) => r.id),
    rows.map((r) => r.attemptBase),
  );
}

export const deliveryRelay: RelaySource<DeliveryRequested> = {
  name: 'deliveries',
  channel: DELIVERIES_CHANNEL,
  async read(limit) {
    const batch = await findUnrelayed(limit);
    return { rows: batch.rows.length, events: batch.requests, markSent: () => markRelayed(batch.rows) };
  },
};
