// One tenant must not starve every other tenant's webhooks, as a scenario shared by its test
// (test/webhooks/fair-delivery-across-tenants.integration.test.ts) and its bench (bench/fairness.ts): tenant A
// has slow endpoints (loopback receivers that answer after `slowMs`) and a backlog of events; while
// the worker drains it, tenant B's events go to one fast endpoint, and each is timed from its commit
// to its arrival. Run with DATABASE_URL set and the worker engine's settings.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { transaction } from '@/server/db/unit-of-work';

export interface FairnessOptions {
  slowEndpoints: number;
  slowEvents: number;
  slowMs: number;
  fastEvents: number;
  fastIntervalMs: number;
  /** How long after its last event B's deliveries may take before the scenario stops waiting. */
  waitMs: number;
}

export interface FairnessFigures {
  /** Commit → arrival of each of B's deliveries that arrived, ascending (ms). */
  fastArrivalsMs: number[];
  fastExpected: number;
  /** Nearest-rank percentiles of B's arrivals; null when some never arrived. */
  p50: number | null;
  p95: number | null;
  max: number | null;
  /** A's deliveries, how many were still pending when B's last one arrived, and A's most at once. */
  slowBacklog: number;
  slowPendingAtEnd: number;
  slowInFlightMax: number;
}

interface Receiver {
  url: string;
  close(): void;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`),
    ),
  );
}

function closeServer(server: Server) {
  server.closeAllConnections();
  server.close();
}

const nearestRank = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function runFairnessScenario(options: FairnessOptions): Promise<FairnessFigures> {
  const { createTenantWithAdmin } = await import('@/server/domain/tenants');
  const { operationContext, SYSTEM_ACTOR } = await import('@/server/domain/context');
  const { forTenant } = await import('@/server/db/tenant-scope');
  const { exampleObject } = await import('@/server/events/payloads');
  const { createEndpoint } = await import('@/server/webhooks');
  const { recordEvent } = await import('@/server/webhooks/outbox');
  const { startDeliveryWorker } = await import('@/server/runtime/deliveries/worker');

  const newTenant = async (name: string) =>
    (
      await createTenantWithAdmin({
        name,
        adminEmail: `${name}-${randomBytes(4).toString('hex')}@fairness.test`,
        adminPassword: 'fairness password 1',
      })
    ).tenantId;
  const emit = (tenantId: string, id: string) =>
    transaction({ tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId,
        type: 'booking.created',
        object: { ...exampleObject('booking.created'), id },
      }),
    );

  // Tenant A: slow receivers, each counting the requests it holds open.
  let slowInFlight = 0;
  let slowInFlightMax = 0;
  const slow: Receiver[] = [];
  for (let i = 0; i < options.slowEndpoints; i++) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        slowInFlight++;
        slowInFlightMax = Math.max(slowInFlightMax, slowInFlight);
        setTimeout(() => {
          slowInFlight--;
          res.writeHead(200).end('ok');
        }, options.slowMs);
      });
    });
    slow.push({ url: await listen(server), close: () => closeServer(server) });
  }
  // Tenant B: one fast receiver that notes when each event arrives.
  const arrivals = new Map<string, number>();
  const fastServer = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.set(String(req.headers['webhook-id']), performance.now());
      res.writeHead(200).end('ok');
    });
  });
  const fastUrl = await listen(fastServer);

  const tenantA = await newTenant('slow-a');
  const tenantB = await newTenant('fast-b');
  for (const receiver of slow) {
    await createEndpoint(operationContext(tenantA, SYSTEM_ACTOR), { url: receiver.url, events: ['*'] });
  }
  await createEndpoint(operationContext(tenantB, SYSTEM_ACTOR), { url: fastUrl, events: ['*'] });
  // A's backlog, committed before the worker starts (8 producers at a time).
  for (let i = 0; i < options.slowEvents; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, options.slowEvents - i) }, (_, j) => emit(tenantA, `bkg_a_${i + j}`)),
    );
  }
  const slowBacklog = options.slowEvents * options.slowEndpoints;

  const worker = await startDeliveryWorker();
  try {
    // A holds as many slots as it is allowed to before B's first event.
    const saturated = Date.now() + 15_000;
    while (slowInFlight < 8 && Date.now() < saturated) await new Promise((r) => setTimeout(r, 20));

    const committed = new Map<string, number>();
    for (let i = 0; i < options.fastEvents; i++) {
      const event = await emit(tenantB, `bkg_b_${i}`);
      committed.set(event.id, performance.now());
      await new Promise((r) => setTimeout(r, options.fastIntervalMs));
    }
    const deadline = Date.now() + options.waitMs;
    while ([...committed.keys()].some((id) => !arrivals.has(id)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const fastArrivalsMs = [...committed]
      .filter(([id]) => arrivals.has(id))
      .map(([id, at]) => Math.round((arrivals.get(id) as number) - at))
      .sort((a, b) => a - b);
    const slowPendingAtEnd = await forTenant(tenantA).delivery.count({ where: { status: 'pending' } });
    const all = fastArrivalsMs.length === options.fastEvents;
    return {
      fastArrivalsMs,
      fastExpected: options.fastEvents,
      p50: all ? nearestRank(fastArrivalsMs, 50) : null,
      p95: all ? nearestRank(fastArrivalsMs, 95) : null,
      max: all ? fastArrivalsMs[fastArrivalsMs.length - 1] : null,
      slowBacklog,
      slowPendingAtEnd,
      slowInFlightMax,
    };
  } finally {
    // A's backlog would keep the worker busy for an hour: end it, then stop.
    await forTenant(tenantA).delivery.updateMany({
      where: { status: 'pending' },
      data: { status: 'failed' },
    });
    for (const receiver of slow) receiver.close();
    closeServer(fastServer);
    await worker.stop();
  }
}
