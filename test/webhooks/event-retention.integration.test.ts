import { describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { deleteExpiredEvents } from '@/server/events/retention';
import { PERIODIC_JOBS } from '@/server/runtime/jobs';
import { createEndpoint } from '@/server/webhooks';
import { runAttempt } from '@/server/webhooks/attempt/run-attempt';
import { recordEvent } from '@/server/webhooks/outbox';
import { createTestTenant } from '../support/helpers';
import { startReceiver } from '../support/webhook-receiver';

// EVENT_RETENTION_DAYS (docs/operations.md "Webhook operations").
const DAY = 86_400_000;

async function tenantWithEvents(ages: number[]) {
  const t = await createTestTenant('retention');
  const hook = await startReceiver(() => ({ status: 200 }));
  const db = forTenant(t.tenantId);
  await createEndpoint(operationContext(t.tenantId, SYSTEM_ACTOR), { url: hook.url, events: ['booking.*'] });
  const ids: string[] = [];
  for (const [i, ageDays] of ages.entries()) {
    const event = await transaction({ tenantId: t.tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId: t.tenantId,
        type: 'booking.created',
        object: { ...exampleObject('booking.created'), id: `bkg_${i}` },
      }),
    );
    const [delivery] = await db.delivery.findMany({ where: { eventId: event.id } });
    await runAttempt({ tenantId: t.tenantId, deliveryId: delivery.id, attempt: 1 });
    const at = new Date(Date.now() - ageDays * DAY);
    await db.event.update({ where: { id: event.id }, data: { createdAt: at } });
    await db.delivery.update({ where: { id: delivery.id }, data: { createdAt: at } });
    ids.push(event.id);
  }
  await hook.close();
  return { t, db, ids };
}

describe('event retention', () => {
  it('deletes events older than the setting with their deliveries and attempts, keeping newer ones', async () => {
    const { db, ids } = await tenantWithEvents([40, 31, 29, 0]);
    const [old1, old2, recent, fresh] = ids;
    const oldDeliveries = await db.delivery.findMany({ where: { eventId: { in: [old1, old2] } } });
    expect(
      await db.deliveryAttempt.count({ where: { deliveryId: { in: oldDeliveries.map((d) => d.id) } } }),
    ).toBe(2);

    expect(await deleteExpiredEvents({ days: 30 })).toBeGreaterThanOrEqual(2);
    expect((await db.event.findMany({ orderBy: { createdAt: 'asc' } })).map((e) => e.id)).toEqual([
      recent,
      fresh,
    ]);
    expect(await db.delivery.count({ where: { eventId: { in: [old1, old2] } } })).toBe(0);
    expect(
      await db.deliveryAttempt.count({ where: { deliveryId: { in: oldDeliveries.map((d) => d.id) } } }),
    ).toBe(0);
    expect(await db.delivery.count({ where: { eventId: { in: [recent, fresh] } } })).toBe(2);
  });

  it('never deletes an event that still has a pending delivery', async () => {
    const { db, ids } = await tenantWithEvents([60, 60]);
    const [pending, done] = ids;
    await db.delivery.updateMany({ where: { eventId: pending }, data: { status: 'pending' } });
    await deleteExpiredEvents({ days: 30 });
    expect((await db.event.findMany()).map((e) => e.id)).toEqual([pending]);
    expect(await db.delivery.count({ where: { eventId: pending } })).toBe(1);
    expect(await db.event.count({ where: { id: done } })).toBe(0);
  });

  it('works in batches until done', async () => {
    const { db } = await tenantWithEvents(Array.from({ length: 7 }, () => 90));
    expect(await deleteExpiredEvents({ days: 30, batch: 2 })).toBe(7);
    expect(await db.event.count()).toBe(0);
  });

  it('0 keeps everything', async () => {
    const { db } = await tenantWithEvents([400, 100]);
    expect(await deleteExpiredEvents({ days: 0 })).toBe(0);
    expect(await db.event.count()).toBe(2);
  });

  it('runs as a periodic job with the EVENT_RETENTION_DAYS setting (default 30)', async () => {
    const { db, ids } = await tenantWithEvents([45, 1]);
    const job = PERIODIC_JOBS.find((j) => j.name === 'delete-expired-events');
    expect(job).not.toHaveProperty('engine'); // both engines run it
    expect(job?.everyMs).toBeLessThanOrEqual(DAY);
    expect((await job!.run()).deleted).toBeGreaterThanOrEqual(1);
    expect((await db.event.findMany()).map((e) => e.id)).toEqual([ids[1]]);
  });
});
