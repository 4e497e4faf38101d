import { expect } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { exampleObject } from '@/server/events/payloads';
import { recordEvent } from '@/server/webhooks/outbox';

/**
 * `count` booking events recorded for the tenant through the outbox, one transaction each as a
 * change records them (so each fans out to the tenant's matching endpoints), in order; their
 * envelopes. Object ids are `<objectIdPrefix>_<i>`.
 */
export async function recordBookingEvents(
  tenantId: string,
  count: number,
  options: { type?: 'booking.created' | 'booking.confirmed'; objectIdPrefix?: string } = {},
) {
  const { type = 'booking.created', objectIdPrefix = 'bkg' } = options;
  const envelopes = [];
  for (let i = 0; i < count; i++) {
    envelopes.push(
      await transaction({ tenantId }, (tx) =>
        recordEvent(tx, { tenantId, type, object: { ...exampleObject(type), id: `${objectIdPrefix}_${i}` } }),
      ),
    );
  }
  return envelopes;
}

/** A worker's live claim on a delivery (60 s left), as a worker holding it in flight leaves it. */
export function holdDelivery(tenantId: string, delivery: { id: string; endpointId: string }) {
  return forTenant(tenantId).deliveryClaim.create({
    data: {
      deliveryId: delivery.id,
      tenantId,
      endpointId: delivery.endpointId,
      lockedUntil: new Date(Date.now() + 60_000),
    },
  });
}

/** The events recorded for a tenant, oldest first, optionally of one type or about one object. */
export async function eventsOf(tenantId: string, filter: { type?: string; objectId?: string } = {}) {
  const rows = await forTenant(tenantId).event.findMany({
    where: filter.type ? { type: filter.type } : {},
    orderBy: { id: 'asc' },
  });
  // biome-ignore lint/suspicious/noExplicitAny: envelopes are checked field by field in the tests
  const envelopes = rows.map((r) => r.payload as any);
  return filter.objectId ? envelopes.filter((e) => e.data.object.id === filter.objectId) : envelopes;
}

export function expectProblemCode(
  res: { status: number; body: { code?: string } },
  status: number,
  code: string,
) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
}
