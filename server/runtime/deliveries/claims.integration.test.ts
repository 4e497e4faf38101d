import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createEndpoint } from '@/server/webhooks';
import { recordBookingEvents } from '@/test/support/domain-fixtures';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { eventually, type Receiver, startReceiver } from '@/test/support/webhook-receiver';
import { claimDue, claimLeaseMs } from './claims';
import { claimDeliveries } from './sql/claim-deliveries';
import { releaseClaims } from './sql/release-claims';
import { startDeliveryWorker } from './worker';

// The deliveries table is the worker's queue: claims take due pending deliveries, oldest first,
// never the same delivery twice while a claim holds it, and again once a claim lapses.
let tenant: TestTenant;
let pool: pg.Pool;
let hook: Receiver;

beforeAll(async () => {
  tenant = await createTestTenant('queue');
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  hook = await startReceiver();
});
afterAll(async () => {
  await pool.end();
  await hook.close();
});

async function emit(count: number): Promise<string[]> {
  const db = forTenant(tenant.tenantId);
  const ids: string[] = [];
  for (const event of await recordBookingEvents(tenant.tenantId, count, { type: 'booking.confirmed' })) {
    ids.push((await db.delivery.findFirstOrThrow({ where: { eventId: event.id } })).id);
  }
  return ids;
}

// The claim statement itself, with caps too high to bind (the caps have tests of their own below).
const claim = async (limit: number, leaseMs = 60_000, client: pg.Pool | pg.PoolClient = pool) =>
  claimDeliveries.pgRows(client, [limit, leaseMs, 1000, 1000]);

describe('claims', () => {
  it('take due pending deliveries oldest first, with what the attempt needs, and never twice', async () => {
    const endpoint = await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
      url: hook.url,
      events: ['booking.confirmed'],
    });
    const [first, second, later, done] = await emit(4);
    const db = forTenant(tenant.tenantId);
    await db.delivery.update({
      where: { id: later },
      data: { nextAttemptAt: new Date(Date.now() + 60_000) },
    });
    await db.delivery.update({ where: { id: done }, data: { status: 'succeeded', nextAttemptAt: null } });

    const claimed = await claim(10);
    expect(claimed.map((c) => c.id)).toEqual([first, second]);
    expect(claimed[0]).toMatchObject({ url: hook.url, eventType: 'booking.confirmed', attemptCount: 0 });
    expect(await claim(10)).toEqual([]); // held by the first claim
    const held = await db.deliveryClaim.findMany({
      where: { deliveryId: { in: [first, second, later, done] } },
    });
    expect(held.map((c) => c.deliveryId).sort()).toEqual([first, second].sort());
    expect(held.every((c) => c.lockedUntil.getTime() > Date.now())).toBe(true);

    // Released claims are due again at once.
    await releaseClaims.pgRows(pool, [[first, second]]);
    expect((await claim(10)).map((c) => c.id)).toEqual([first, second]);
    await releaseClaims.pgRows(pool, [[first, second]]);
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { isActive: false } });
  });

  it('split concurrent claims: the claim lock and SKIP LOCKED hand each delivery to one claimer', async () => {
    await forTenant(tenant.tenantId).delivery.updateMany({
      where: { status: 'pending' },
      data: { status: 'failed' },
    });
    await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
      url: hook.url,
      events: ['booking.confirmed'],
    });
    const ids = await emit(20);
    // As workers claim (claimDue): one claim at a time under the claim lock, rows locked SKIP LOCKED.
    const caps = { perTenant: 1000, perEndpoint: 1000 };
    const results = await Promise.all([1, 2, 3].map(() => claimDue(pool, 8, 60_000, caps)));
    const all = results.flat().map((c) => c.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...ids].sort());
  });

  it(
    'lapse: a claim whose time has passed is taken again ' + '(a dead process holds nothing for long)',
    async () => {
      await forTenant(tenant.tenantId).delivery.updateMany({
        where: { status: 'pending' },
        data: { status: 'failed' },
      });
      const [id] = await emit(1);
      expect((await claim(1, 1)).map((c) => c.id)).toEqual([id]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await claim(1)).map((c) => c.id)).toEqual([id]);
      await forTenant(tenant.tenantId).delivery.updateMany({
        where: { status: 'pending' },
        data: { status: 'failed' },
      });
    },
  );

  it('last twice the deadline plus a margin: half to wait for a free slot, half for the attempt', () => {
    expect(claimLeaseMs(10_000)).toBe(40_000);
    expect(claimLeaseMs(1_000)).toBe(22_000);
  });
});

describe('several workers on one database', () => {
  it('deliver every delivery exactly once between them', { timeout: 30_000 }, async () => {
    const workers = await Promise.all(
      [1, 2, 3].map(() => startDeliveryWorker({ concurrency: 4, pollIntervalMs: 20 })),
    );
    try {
      const before = hook.received.length;
      const ids = await emit(40);
      await eventually(
        async () =>
          (await forTenant(tenant.tenantId).delivery.count({
            where: { id: { in: ids }, status: 'succeeded' },
          })) === 40
            ? true
            : undefined,
        20_000,
        'all 40 deliveries to succeed',
      );
      const received = hook.received.slice(before).map((r) => r.headers['webhook-id']);
      expect(received).toHaveLength(40);
      expect(new Set(received).size).toBe(40);
      const locked = await forTenant(tenant.tenantId).deliveryClaim.count({
        where: { deliveryId: { in: ids } },
      });
      expect(locked).toBe(0); // recording ended every claim
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  });

  it('give back the claims they did not start when they stop', async () => {
    const ids = await emit(30);
    // Deliveries to an endpoint that answers slowly keep the one slot busy while the rest wait claimed.
    const slow = await startReceiver(() => ({ status: 200, delayMs: 300 }));
    try {
      await forTenant(tenant.tenantId).webhookEndpoint.updateMany({
        where: { url: hook.url },
        data: { url: slow.url },
      });
      const worker = await startDeliveryWorker({ concurrency: 1, pollIntervalMs: 20 });
      await slow.waitFor(1);
      await worker.stop();
      const rows = await forTenant(tenant.tenantId).delivery.findMany({
        where: { id: { in: ids }, status: 'pending' },
      });
      expect(rows.length).toBeGreaterThan(0);
      const held = await forTenant(tenant.tenantId).deliveryClaim.count({
        where: { deliveryId: { in: rows.map((r) => r.id) } },
      });
      expect(held).toBe(0);
    } finally {
      await forTenant(tenant.tenantId).webhookEndpoint.updateMany({
        where: { url: slow.url },
        data: { url: hook.url },
      });
      await slow.close();
    }
  });
});
