import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createEndpoint } from '@/server/webhooks';
import { recordBookingEvents } from '@/test/support/domain-fixtures';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { eventually, startReceiver } from '@/test/support/webhook-receiver';
import { startDeliveryWorker } from './worker';

// The worker's `concurrency` bounds the requests it has out at once; an attempt's record commits
// after its request is answered and needs no slot.
let tenant: TestTenant;
const caps = { perTenant: 100, perEndpoint: 100 }; // these tests are not about the caps

beforeAll(async () => {
  tenant = await createTestTenant('runner');
});

const emit = (count: number) => recordBookingEvents(tenant.tenantId, count, { type: 'booking.confirmed' });

async function onlyEndpoint(url: string) {
  const db = forTenant(tenant.tenantId);
  await db.webhookEndpoint.updateMany({ where: { isActive: true }, data: { isActive: false } });
  return createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), { url, events: ['booking.*'] });
}

describe('the worker', () => {
  let server: Server;
  let open = 0;
  let most = 0;
  let answered = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      open++;
      most = Math.max(most, open);
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          open--;
          answered++;
          res.writeHead(200).end();
        }, 50),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('has at most `concurrency` requests out at once, and uses them all', { timeout: 20_000 }, async () => {
    await onlyEndpoint(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    await emit(12);
    const worker = await startDeliveryWorker({ concurrency: 3, pollIntervalMs: 20, caps });
    try {
      await eventually(async () => (answered >= 12 ? true : undefined), 10_000, 'all 12 requests');
      expect(most).toBe(3);
    } finally {
      await worker.stop();
    }
  });

  it('ends its claim on a delivery it fails unsent (its endpoint went inactive)', {
    timeout: 20_000,
  }, async () => {
    const endpoint = await onlyEndpoint(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    const events = await emit(2);
    const db = forTenant(tenant.tenantId);
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { isActive: false } });
    const before = answered;
    const worker = await startDeliveryWorker({ concurrency: 2, pollIntervalMs: 20, caps });
    try {
      const where = { eventId: { in: events.map((e) => e.id) } };
      await eventually(
        async () =>
          (await db.delivery.count({ where: { ...where, status: 'failed' } })) === 2 ? true : undefined,
        10_000,
        'both deliveries failed',
      );
      expect(await db.deliveryClaim.count({ where: { delivery: where } })).toBe(0);
      expect(answered).toBe(before);
    } finally {
      await worker.stop();
    }
  });

  it('sends the next request while the last one is still being recorded', { timeout: 20_000 }, async () => {
    // Failures move the endpoint's failure streak: with the endpoint's row locked elsewhere, their
    // records wait for the lock, and the one slot must not wait with them.
    const failing = await startReceiver(() => ({ status: 500, body: 'no' }));
    const endpoint = await onlyEndpoint(failing.url);
    await emit(3);
    const blocker = new pg.Client({ connectionString: databaseUrl() });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select 1 from webhook_endpoints where id = $1 for update', [endpoint.id]);
    const worker = await startDeliveryWorker({ concurrency: 1, pollIntervalMs: 20, caps });
    try {
      await failing.waitFor(3, 10_000); // three requests from one slot, none of them recorded yet
      const recorded = await forTenant(tenant.tenantId).deliveryAttempt.count({
        where: { endpointId: endpoint.id },
      });
      expect(recorded).toBe(0);
      await blocker.query('commit');
      await eventually(
        async () =>
          (await forTenant(tenant.tenantId).deliveryAttempt.count({ where: { endpointId: endpoint.id } })) >=
          3
            ? true
            : undefined,
        10_000,
        'the three attempts recorded once the lock is gone',
      );
    } finally {
      await blocker.query('rollback').catch(() => undefined);
      await blocker.end();
      await worker.stop();
      await failing.close();
    }
  });
});
