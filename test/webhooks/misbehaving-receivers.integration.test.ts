import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { createEndpoint } from '@/server/webhooks';
import { EXCERPT_BYTES } from '@/server/webhooks/attempt/send';
import { recordEvent } from '@/server/webhooks/outbox';
import { createTestTenant, type TestTenant } from '../support/helpers';
import { eventually } from '../support/webhook-receiver';

// One endpoint per way a receiver can misbehave, all delivered by the real worker
// engine running in this process. Each attempt must be recorded with the right error and status,
// with an excerpt of at most 2 KiB, within the deadline; and the worker must not read a huge or
// endless body, so the RSS of this process (the one doing the deliveries; it also runs the loopback
// receivers, so the figure is an upper bound) grows by less than 50 MB over the batch.
const DEADLINE_MS = 1_000;
const SLACK_MS = 1_500; // scheduling on a shared 2-core machine
const HUGE_BYTES = 50 * 1024 * 1024;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface Target {
  url: string;
  /** Body bytes this receiver managed to hand to its socket before the worker hung up. */
  written: number;
  /** When the worker's connection closed (ms since the batch started), if it did. */
  closedAt?: number;
}

let tenant: TestTenant;
let worker: DeliveryWorker | undefined;
const servers: Server[] = [];
const timers: NodeJS.Timeout[] = [];
let batchStarted = 0;

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** An HTTP receiver that answers with `handler` once the request body is in. */
async function httpTarget(handler: (target: Target) => Handler): Promise<Target> {
  const target: Target = { url: '', written: 0 };
  const serve = handler(target);
  const server = createHttpServer((req, res) => {
    res.on('close', () => {
      target.closedAt ??= Date.now() - batchStarted;
    });
    req.resume();
    req.on('end', () => serve(req, res));
  });
  target.url = `http://127.0.0.1:${await listen(server)}/hook`;
  return target;
}

/** Writes `total` bytes of body in 64 KiB chunks, honouring backpressure, until done or the peer hangs up. */
function stream(res: ServerResponse, target: Target, total: number) {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const pump = () => {
    while (target.written < total && !res.destroyed) {
      target.written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

const scenarios = {
  // Answers after three times the deadline.
  slow: () =>
    httpTarget(() => (_req, res) => {
      timers.push(setTimeout(() => res.writeHead(200).end('too late'), 3 * DEADLINE_MS));
    }),
  // Resets the connection (TCP RST) instead of answering.
  reset: () => httpTarget(() => (req) => req.socket.resetAndDestroy()),
  // 500 with a 10 KiB body of multi-byte characters: the excerpt must stay within 2 KiB of UTF-8.
  error500: () =>
    httpTarget(
      () => (_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('€'.repeat(3500)),
    ),
  // 410 Gone: an ordinary failed attempt (the endpoint is not disabled by it).
  gone410: () => httpTarget(() => (_req, res) => res.writeHead(410).end('gone')),
  // A redirect to a receiver that must never be called.
  redirect: async () => {
    const elsewhere = await httpTarget(() => (_req, res) => res.writeHead(200).end('followed!'));
    const target = await httpTarget(
      () => (_req, res) => res.writeHead(302, { location: elsewhere.url }).end(),
    );
    return Object.assign(target, { elsewhere });
  },
  // 200 with a 50 MB body: only the excerpt may be read.
  huge: () =>
    httpTarget((target) => (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': HUGE_BYTES });
      stream(res, target, HUGE_BYTES);
    }),
  // 200, then a body that never ends (a byte every 50 ms): the attempt must end at the deadline.
  trickle: () =>
    httpTarget((target) => (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        target.written++;
        res.write('.');
      }, 50);
      timers.push(timer);
    }),
  // A body with NUL and invalid UTF-8 bytes: the excerpt must still be storable (PostgreSQL text has no NUL).
  binary: () =>
    httpTarget(
      () => (_req, res) => res.writeHead(500).end(Buffer.from([0x00, 0xff, 0xfe, 0x41, 0x00, 0xc3])),
    ),
  // An https URL to a port that speaks plain HTTP over TCP: the TLS handshake fails.
  tls: async () => {
    const sockets: Socket[] = [];
    const server = createTcpServer((socket) => {
      sockets.push(socket);
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'));
      socket.on('error', () => undefined);
    });
    return { url: `https://127.0.0.1:${await listen(server)}/hook`, written: 0 } as Target;
  },
};
type Name = keyof typeof scenarios;

beforeAll(async () => {
  Object.assign(process.env, { WEBHOOK_TIMEOUT_MS: String(DEADLINE_MS), WEBHOOK_RETRY_WAITS: '1h' });
  resetSettingsCache();
  tenant = await createTestTenant('misbehaving');
});
afterAll(async () => {
  for (const timer of timers) clearTimeout(timer);
  await worker?.stop();
  for (const server of servers) {
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close();
  }
  delete process.env.WEBHOOK_TIMEOUT_MS;
  delete process.env.WEBHOOK_RETRY_WAITS;
  resetSettingsCache();
});

describe('misbehaving receivers', () => {
  it('records each failure with the right error and status, within the deadline and bounded memory', {
    timeout: 60_000,
  }, async () => {
    const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
    const db = forTenant(tenant.tenantId);
    const targets = {} as Record<Name, Target & { endpointId: string; elsewhere?: Target }>;
    for (const name of Object.keys(scenarios) as Name[]) {
      const target = await scenarios[name]();
      const endpoint = await createEndpoint(ctx, { url: target.url, events: ['booking.created'] });
      targets[name] = Object.assign(target, { endpointId: endpoint.id });
    }
    worker = await startDeliveryWorker({ pollIntervalMs: 50 });

    // Warm-up: one delivery through the whole path before the baseline, so lazy loading is not counted.
    const ok = await httpTarget(() => (_req, res) => res.writeHead(204).end());
    const okEndpoint = await createEndpoint(ctx, { url: ok.url, events: ['booking.confirmed'] });
    await transaction({ tenantId: tenant.tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId: tenant.tenantId,
        type: 'booking.confirmed',
        object: { ...exampleObject('booking.confirmed'), id: 'bkg_warm' },
      }),
    );
    await eventually(
      async () =>
        (await db.delivery.findFirst({ where: { endpointId: okEndpoint.id, status: 'succeeded' } })) ??
        undefined,
      10_000,
      'the warm-up delivery',
    );

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    batchStarted = Date.now();
    // One event, one delivery to each misbehaving endpoint.
    await transaction({ tenantId: tenant.tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId: tenant.tenantId,
        type: 'booking.created',
        object: { ...exampleObject('booking.created'), id: 'bkg_misbehaving' },
      }),
    );
    let unrecorded: string[] = [];
    const attempts = await eventually(
      async () => {
        const rows = await db.deliveryAttempt.findMany({ include: { delivery: true } });
        const batch = rows.filter((a) => a.delivery.endpointId !== okEndpoint.id);
        unrecorded = (Object.keys(targets) as Name[]).filter(
          (name) => !batch.some((a) => a.delivery.endpointId === targets[name].endpointId),
        );
        return unrecorded.length === 0 ? batch : undefined;
      },
      DEADLINE_MS + 10_000,
      'one recorded attempt per misbehaving receiver',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; none recorded for: ${unrecorded.join(', ')}`);
    });
    const batchMs = Date.now() - batchStarted;
    clearInterval(sampler);
    const final = process.memoryUsage().rss;
    peak = Math.max(peak, final);

    const attempt = (name: Name) => {
      const found = attempts.find((a) => a.delivery.endpointId === targets[name].endpointId);
      if (!found) throw new Error(`no attempt recorded for ${name}`);
      return found;
    };
    const summary: string[] = [];
    for (const name of Object.keys(scenarios) as Name[]) {
      const a = attempt(name);
      summary.push(`${name}: ${a.responseStatus ?? '-'} ${a.error ?? 'ok'} (${a.latencyMs} ms)`);
      // One attempt each (the retry is an hour away), within the deadline, with a bounded excerpt.
      expect(a.attemptNumber).toBe(1);
      expect(a.latencyMs, `${name} latency`).toBeLessThanOrEqual(DEADLINE_MS + SLACK_MS);
      expect(Buffer.byteLength(a.responseExcerpt ?? ''), `${name} excerpt`).toBeLessThanOrEqual(
        EXCERPT_BYTES,
      );
      expect(a.delivery.status, name).toBe(name === 'huge' ? 'succeeded' : 'pending');
    }

    expect(attempt('slow')).toMatchObject({ succeeded: false, responseStatus: null, responseExcerpt: null });
    expect(attempt('slow').error).toMatch(/^timeout: /);
    expect(attempt('slow').latencyMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);

    expect(attempt('reset')).toMatchObject({ succeeded: false, responseStatus: null });
    expect(attempt('reset').error).toMatch(/^ECONNRESET: /);

    expect(attempt('error500')).toMatchObject({ succeeded: false, responseStatus: 500 });
    expect(attempt('error500').error).toMatch(/^http_status: /);
    const excerpt500 = attempt('error500').responseExcerpt as string;
    expect(excerpt500).toMatch(/^€+$/); // a character cut at the 2 KiB boundary is dropped, not mangled
    expect(Buffer.byteLength(excerpt500)).toBeGreaterThan(EXCERPT_BYTES - 4);

    expect(attempt('gone410')).toMatchObject({
      succeeded: false,
      responseStatus: 410,
      responseExcerpt: 'gone',
    });
    expect(attempt('gone410').error).toMatch(/^http_status: /);
    const endpoint410 = await db.webhookEndpoint.findUniqueOrThrow({
      where: { id: targets.gone410.endpointId },
    });
    expect(endpoint410.isActive).toBe(true);

    expect(attempt('redirect')).toMatchObject({ succeeded: false, responseStatus: 302 });
    expect(attempt('redirect').error).toMatch(/^redirect_refused: /);
    expect(targets.redirect.elsewhere?.closedAt).toBeUndefined(); // never followed

    expect(attempt('huge')).toMatchObject({ succeeded: true, responseStatus: 200, error: null });
    expect(attempt('huge').responseExcerpt).toBe('a'.repeat(EXCERPT_BYTES));
    // The worker hung up after the excerpt: the receiver could hand only socket buffers' worth to it.
    expect(targets.huge.written).toBeLessThan(HUGE_BYTES / 2);

    expect(attempt('trickle')).toMatchObject({ succeeded: false, responseStatus: null });
    expect(attempt('trickle').error).toMatch(/^timeout: /);
    // Aborted at the deadline: the receiver saw the connection close then, not when it stopped writing.
    expect(targets.trickle.closedAt).toBeDefined();
    expect(targets.trickle.closedAt).toBeLessThanOrEqual(DEADLINE_MS + SLACK_MS);

    expect(attempt('binary')).toMatchObject({ succeeded: false, responseStatus: 500 });
    // NUL and invalid bytes become U+FFFD; the cut-off lead byte at the end is dropped.
    expect(attempt('binary').responseExcerpt).toBe('\uFFFD\uFFFD\uFFFDA\uFFFD');

    expect(attempt('tls')).toMatchObject({ succeeded: false, responseStatus: null, responseExcerpt: null });
    expect(attempt('tls').error).toMatch(/^(EPROTO|ERR_SSL_[A-Z_]+): /);

    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(
      [
        `misbehaving receivers: ${Object.keys(scenarios).length} scenarios in ${batchMs} ms`,
        ...summary,
        `huge: the receiver wrote ${mb(targets.huge.written)} MB of ${mb(HUGE_BYTES)} MB before the worker hung up`,
        `RSS (in-process: worker + receivers): baseline ${mb(baseline)} MB, peak ${mb(peak)} MB ` +
          `(+${mb(peak - baseline)}), after ${mb(final)} MB (+${mb(final - baseline)})`,
      ].join('\n  '),
    );
    expect(peak - baseline).toBeLessThan(50 * 1024 * 1024);
  });
});
