// PostgreSQL going away under the service (docs/decisions.md "Security"): REST and tRPC answer 503
// service_unavailable with Retry-After, never 500; once it is back, requests succeed without a
// restart. The database is reached through a proxy this test takes down and brings back.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebSession } from '@/server/auth/web-sessions';
import { disconnectDb } from '@/server/db/client';
import { closePgPool } from '@/server/db/pool';
import { forTenant } from '@/server/db/tenant-scope';
import { startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { viewerFromSession } from '@/server/trpc/membership';
import { appRouter } from '@/server/trpc/root';
import { startApiServer, type TestServer } from '../support/api-server';
import { client, createTestTenant, type TestTenant } from '../support/helpers';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { startReceiver } from '../support/webhook-receiver';

const proxies: TcpProxy[] = [];
let server: TestServer;
let tenant: TestTenant;

beforeAll(async () => {
  // Both ways to the database go down together: the pooled DATABASE_URL and, behind a pooler, DIRECT_URL.
  for (const name of ['DATABASE_URL', 'DIRECT_URL'] as const) {
    if (!process.env[name]) continue;
    const real = new URL(process.env[name]);
    const proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port) });
    proxies.push(proxy);
    real.port = String(proxy.port);
    process.env[name] = real.toString();
  }
  await disconnectDb();
  await closePgPool();
  server = await startApiServer();
  tenant = await createTestTenant('Outage');
});
afterAll(async () => {
  await server.close();
  await Promise.all(proxies.map((p) => p.close()));
});

async function eventually<T>(attempt: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await attempt();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a database outage', () => {
  it('under traffic for 5 s: 503s while down, then every committed booking has its event delivered', async () => {
    const receiver = await startReceiver();
    const worker = await startDeliveryWorker({ pollIntervalMs: 100 });
    try {
      const api = client(server.url, { tenantId: tenant.tenantId, token: tenant.apiKey });
      expect(
        (await api('POST', '/webhooks', { body: { url: receiver.url, events: ['booking.created'] } })).status,
      ).toBe(201);
      const committed: string[] = [];
      const statuses = new Map<number, number>();
      const state = { phase: 'up' as 'up' | 'down' | 'back' };
      const traffic = (async () => {
        for (let i = 0; state.phase !== 'back' || i % 10 !== 0; i++) {
          const res = await api('POST', '/bookings', {
            body: {
              customer: { name: `Traffic ${i}` },
              start_at: '2026-12-01T09:00:00Z',
              end_at: '2026-12-01T10:00:00Z',
            },
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201) committed.push(res.body.id);
          else expect(res.status, `${state.phase}: ${res.text}`).toBe(503);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 500));
      state.phase = 'down';
      await Promise.all(proxies.map((p) => p.down()));
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      await Promise.all(proxies.map((p) => p.up()));
      state.phase = 'back';
      await traffic;
      expect(statuses.get(503)).toBeGreaterThan(0);
      expect(committed.length).toBeGreaterThan(0);
      // Every committed change's event reaches the receiver once the database is back. Committed means
      // in the database: a request whose COMMIT went through while the connection dropped before the
      // answer came back was answered 503 but is committed, and its event must arrive too.
      const stored = await forTenant(tenant.tenantId).booking.findMany({ select: { id: true } });
      const inDatabase = stored.map((b) => b.id);
      expect(inDatabase).toEqual(expect.arrayContaining(committed));
      const delivered = await receiver.waitFor(inDatabase.length, 30_000);
      const objects = delivered.map((w) => JSON.parse(w.body).data.object.id as string);
      expect(new Set(objects)).toEqual(new Set(inDatabase));
    } finally {
      await worker.stop();
      await receiver.close();
    }
  }, 90_000);

  it('answers 503 with Retry-After while PostgreSQL is unreachable, and recovers without a restart', async () => {
    const api = client(server.url, { tenantId: tenant.tenantId, token: tenant.apiKey });
    expect((await api('GET', '/bookings')).status).toBe(200);

    await Promise.all(proxies.map((p) => p.down()));
    const down = await api('GET', '/bookings');
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('service_unavailable');
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
    const write = await api('POST', '/bookings', {
      body: {
        customer: { name: 'During' },
        start_at: '2026-12-01T09:00:00Z',
        end_at: '2026-12-01T10:00:00Z',
      },
    });
    expect(write.status).toBe(503);
    // The assistant's endpoint is a route like the others: refused before any protocol work.
    const mcp = await api('POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { Accept: 'application/json, text/event-stream' },
    });
    expect([mcp.status, mcp.body.code]).toEqual([503, 'service_unavailable']);
    expect(Number(mcp.headers.get('retry-after'))).toBeGreaterThan(0);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);

    await Promise.all(proxies.map((p) => p.up()));
    const back = await eventually(
      () => api('GET', '/bookings'),
      (r) => r.status === 200,
    );
    expect(back.status).toBe(200);
  });

  it('answers tRPC calls with SERVICE_UNAVAILABLE and apiCode service_unavailable', async () => {
    const viewer = await viewerFromSession({
      user: { id: tenant.adminUserId, email: tenant.adminEmail, name: 'Admin' },
      tenantId: tenant.tenantId,
      sid: await startWebSession(tenant.adminUserId),
    });
    const caller = appRouter.createCaller({ viewer });
    await Promise.all(proxies.map((p) => p.down()));
    const error = await caller.bookings.listBookings({}).then(
      () => null,
      (e: unknown) => e,
    );
    await Promise.all(proxies.map((p) => p.up()));
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('SERVICE_UNAVAILABLE');
    const back = await eventually(
      () =>
        caller.bookings.listBookings({}).then(
          () => true,
          () => false,
        ),
      (ok) => ok,
    );
    expect(back).toBe(true);
  });
});
