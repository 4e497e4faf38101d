import { type ChildProcess, spawn } from 'node:child_process';
import { InngestTestEngine } from '@inngest/test';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { DELIVERY_REQUESTED } from '@/server/runtime/inngest/client';
import { deliverWebhook } from '@/server/runtime/inngest/functions';
import { runAttempt } from '@/server/webhooks/attempt/run-attempt';
import { loadDelivery } from '@/server/webhooks/attempt/sql/load-delivery';
import { THROTTLE_WINDOW_MS, takeThrottleSlot } from '@/server/webhooks/attempt/throttle';
import { recordEvent } from '@/server/webhooks/outbox';
import { holdDelivery } from '../support/domain-fixtures';
import { apiSuite, type SuiteTenant } from '../support/harness';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// rate_limit_per_second (docs/operations.md "Webhook operations"): an endpoint never receives more than r attempts in any
// second, on both engines; the excess waits and never fails.
process.env.WEBHOOK_RETRY_WAITS = '50ms,50ms';
process.env.WEBHOOK_TIMEOUT_MS = '2000';
resetSettingsCache();

const { newTenant } = apiSuite({ tenant: false });
const receivers: Receiver[] = [];
let worker: DeliveryWorker | undefined;
afterAll(async () => {
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

/**
 * A loopback receiver in a process of its own that notes each request's arrival (when its headers
 * are in) and answers 200. Being apart from the test process, whose event loop runs the worker, the
 * database client and the test itself, it notes arrivals when they happen, not when a busy loop gets
 * round to them.
 */
async function processReceiver() {
  const script = `
    const http = require('node:http');
    const times = [];
    const server = http.createServer((req, res) => {
      times.push(Date.now());
      req.resume();
      req.on('end', () => { res.writeHead(200); res.end('ok'); });
    });
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
    process.on('message', () => process.send({ times }));
    process.on('disconnect', () => process.exit(0));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (m) => resolve((m as { port: number }).port)),
  );
  const times = () =>
    new Promise<number[]>((resolve) => {
      child.once('message', (m) => resolve((m as { times: number[] }).times));
      child.send('times');
    });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    times,
    async waitFor(count: number, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = await times();
        if (got.length >= count || Date.now() > deadline) return got;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => child.kill(),
  };
}
const processes: Array<{ close(): void }> = [];
afterAll(() => {
  for (const p of processes) p.close();
});

/** The most arrivals that fall in any one-second window [t, t + 1000 ms). */
function busiestSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[j] < sorted[i] - 999) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

async function throttled(t: SuiteTenant, perSecond: number) {
  const hook = await startReceiver(() => ({ status: 200 }));
  receivers.push(hook);
  return throttledTo(t, perSecond, hook.url, hook);
}

async function throttledAtProcess(t: SuiteTenant, perSecond: number) {
  const hook = await processReceiver();
  processes.push(hook);
  return throttledTo(t, perSecond, hook.url, hook);
}

async function throttledTo<H>(t: SuiteTenant, perSecond: number, url: string, hook: H) {
  const created = await t.admin('POST', '/webhooks', {
    body: { url, events: ['booking.*'], rate_limit_per_second: perSecond },
  });
  expect(created.status).toBe(201);
  expect(created.body.rate_limit_per_second).toBe(perSecond);
  return { hook, endpoint: created.body };
}

async function events(t: SuiteTenant, count: number) {
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      transaction({ tenantId: t.tenantId }, (tx) =>
        recordEvent(tx, {
          tenantId: t.tenantId,
          type: 'booking.created',
          object: { ...exampleObject('booking.created'), id: `bkg_${i}` },
        }),
      ),
    ),
  );
}

describe('rate_limit_per_second on the API', () => {
  it('is set on create and PATCH: null or 1..1000', async () => {
    const t = await newTenant('throttle api');
    const { endpoint } = await throttled(t, 1000);
    const patch = (value: unknown) =>
      t.admin('PATCH', `/webhooks/${endpoint.id}`, { body: { rate_limit_per_second: value } });
    expect((await patch(1)).body.rate_limit_per_second).toBe(1);
    expect((await patch(null)).body.rate_limit_per_second).toBeNull();
    for (const bad of [0, 1001, 2.5, '5', -1]) {
      const answer = await patch(bad);
      expect(answer.status, String(bad)).toBe(422);
      expect(answer.body.errors[0].path).toBe('rate_limit_per_second');
    }
    const created = await t.admin('POST', '/webhooks', {
      body: { url: 'http://127.0.0.1:9/x', events: ['*'], rate_limit_per_second: 0 },
    });
    expect(created.status).toBe(422);
    const plain = await t.admin('POST', '/webhooks', {
      body: { url: 'http://127.0.0.1:9/x', events: ['*'] },
    });
    expect(plain.body.rate_limit_per_second).toBeNull();
  });
});

const systemContext = (tenantId: string) => operationContext(tenantId, SYSTEM_ACTOR);

describe('the slot', () => {
  it('lets r attempts through per window, then names when the oldest leaves it', async () => {
    const t = await newTenant('throttle slot');
    const { endpoint } = await throttled(t, 2);
    const started = Date.now();
    expect(await takeThrottleSlot(systemContext(t.tenantId), endpoint.id, 2)).toBeNull();
    expect(await takeThrottleSlot(systemContext(t.tenantId), endpoint.id, 2)).toBeNull();
    const next = await takeThrottleSlot(systemContext(t.tenantId), endpoint.id, 2);
    expect(next).toBeInstanceOf(Date);
    const wait = (next as Date).getTime() - started;
    expect(wait).toBeGreaterThanOrEqual(THROTTLE_WINDOW_MS - 20);
    expect(wait).toBeLessThan(THROTTLE_WINDOW_MS + 500);
    // Asking again does not move it, and is refused until then.
    expect((await takeThrottleSlot(systemContext(t.tenantId), endpoint.id, 2))?.getTime()).toBe(
      next?.getTime(),
    );
    await new Promise((r) => setTimeout(r, (next as Date).getTime() - Date.now() + 5));
    expect(await takeThrottleSlot(systemContext(t.tenantId), endpoint.id, 2)).toBeNull();
    const row = await forTenant(t.tenantId).webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.throttleGrants).toHaveLength(2);
    expect(row.throttleGrants[0].getTime()).toBeLessThan(row.throttleGrants[1].getTime());
  });

  it('concurrent callers never get more than r through', async () => {
    const t = await newTenant('throttle race');
    const { endpoint } = await throttled(t, 3);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => takeThrottleSlot(systemContext(t.tenantId), endpoint.id, 3)),
    );
    expect(answers.filter((a) => a === null)).toHaveLength(3);
  });
});

describe('a slot taken but not used at once', () => {
  it('is left unused when the process stalled between taking it and sending: the attempt asks again', async () => {
    const t = await newTenant('throttle stall');
    const { hook, endpoint } = await throttled(t, 5);
    await events(t, 1);
    const db = forTenant(t.tenantId);
    const [delivery] = await db.delivery.findMany({ where: { endpointId: endpoint.id } });
    // Each reading of the clock is 60 ms after the previous one: the slot is too old by the time it would be used.
    let clock = performance.now();
    const now = vi.spyOn(performance, 'now').mockImplementation(() => {
      clock += 60;
      return clock;
    });
    try {
      const outcome = await runAttempt({ tenantId: t.tenantId, deliveryId: delivery.id, attempt: 1 });
      expect(outcome).toMatchObject({ kind: 'throttled', attempt: 1 });
    } finally {
      now.mockRestore();
    }
    expect(hook.received).toHaveLength(0);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: 'pending',
      attemptCount: 0,
    });
    // The slot counts as used; the next ask gets another and sends.
    expect(
      (await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).throttleGrants,
    ).toHaveLength(1);
    expect(await runAttempt({ tenantId: t.tenantId, deliveryId: delivery.id, attempt: 1 })).toMatchObject({
      kind: 'succeeded',
    });
    expect(hook.received).toHaveLength(1);
  });

  it("ends the attempt's claim when it waits, but not a claim for a later attempt", async () => {
    const t = await newTenant('throttle claim');
    const { endpoint } = await throttled(t, 1);
    await events(t, 1);
    const db = forTenant(t.tenantId);
    const [delivery] = await db.delivery.findMany({ where: { endpointId: endpoint.id } });
    const loaded = (await loadDelivery.rows(db, delivery.id, t.tenantId))[0];
    // The one slot of this second is taken: every attempt below waits.
    expect(await takeThrottleSlot(systemContext(t.tenantId), endpoint.id, 1)).toBeNull();
    const store = { load: async () => loaded, record: async () => true };
    const attemptOne = () =>
      runAttempt({ tenantId: t.tenantId, deliveryId: delivery.id, attempt: 1 }, { store });

    await holdDelivery(t.tenantId, delivery);
    expect(await attemptOne()).toMatchObject({ kind: 'throttled' });
    expect(await db.deliveryClaim.count({ where: { deliveryId: delivery.id } })).toBe(0);

    // Attempt 1 was recorded meanwhile and another worker holds the delivery for attempt 2: the
    // late, throttled run of attempt 1 (loaded before) leaves that claim alone.
    await db.delivery.update({ where: { id: delivery.id }, data: { attemptCount: 1 } });
    await holdDelivery(t.tenantId, delivery);
    expect(await attemptOne()).toMatchObject({ kind: 'throttled' });
    expect(await db.deliveryClaim.count({ where: { deliveryId: delivery.id } })).toBe(1);
  });
});

describe('worker engine', () => {
  it('r = 5, 30 deliveries: no second holds more than 5, and all 30 succeed', async () => {
    const t = await newTenant('throttle worker');
    const { hook, endpoint } = await throttledAtProcess(t, 5);
    worker = await startDeliveryWorker({ pollIntervalMs: 20 });
    await events(t, 30);
    const got = await hook.waitFor(30, 20_000);
    await worker.stop();
    worker = undefined;
    expect(got).toHaveLength(30);
    expect(busiestSecond(got), 'arrivals at the receiver').toBeLessThanOrEqual(5);
    // 30 at 5 per 1.1 s take at least 5 windows.
    expect(got[29] - got[0]).toBeGreaterThan(5_000);
    const db = forTenant(t.tenantId);
    const deliveries = await db.delivery.findMany({ where: { endpointId: endpoint.id } });
    expect(deliveries.map((d) => [d.status, d.attemptCount])).toEqual(
      Array.from({ length: 30 }, () => ['succeeded', 1]),
    );
    // As the service saw it too: the attempts' start times.
    const attempts = await db.deliveryAttempt.findMany({
      where: { deliveryId: { in: deliveries.map((d) => d.id) } },
    });
    expect(
      busiestSecond(attempts.map((a) => a.startedAt.getTime())),
      'attempt start times',
    ).toBeLessThanOrEqual(5);
    // Waiting never recorded an attempt: one attempt per delivery.
    expect(
      await db.deliveryAttempt.count({ where: { deliveryId: { in: deliveries.map((d) => d.id) } } }),
    ).toBe(30);
  }, 30_000);
});

describe('Inngest engine', () => {
  it('r = 2, 8 concurrent runs: each sleeps until its slot; no second holds more than 2, all succeed', async () => {
    const t = await newTenant('throttle inngest');
    const { hook, endpoint } = await throttledAtProcess(t, 2);
    await events(t, 8);
    const db = forTenant(t.tenantId);
    const deliveries = await db.delivery.findMany({ where: { endpointId: endpoint.id } });
    // The test engine cannot sleep for real: each throttle sleep is mocked by a short real wait, after
    // which the run asks for a slot again, as it would when its sleepUntil ended.
    const throttleSleeps = Array.from({ length: 200 }, (_, k) => ({
      id: `throttle-1-${k + 1}`,
      handler: () => new Promise((resolve) => setTimeout(resolve, 100)),
    }));
    const runs = await Promise.all(
      deliveries.map((d) =>
        new InngestTestEngine({
          function: deliverWebhook,
          steps: throttleSleeps,
          events: [
            {
              name: DELIVERY_REQUESTED,
              id: d.id,
              data: { tenantId: t.tenantId, deliveryId: d.id, endpointId: endpoint.id, eventId: d.eventId },
            },
          ],
        }).execute(),
      ),
    );
    expect(runs.map((r) => r.result)).toEqual(deliveries.map(() => ({ kind: 'succeeded', attempt: 1 })));
    // Runs that were turned away slept until their slot (step.sleepUntil) and tried the attempt again.
    const slept = runs.flatMap((r) => r.ctx.step.sleepUntil.mock.calls);
    expect(slept.length).toBeGreaterThan(0);
    expect(slept.every(([id]) => /^throttle-1-\d+$/.test(String(id)))).toBe(true);
    expect(slept.every(([, until]) => !Number.isNaN(new Date(until as string).getTime()))).toBe(true);
    const got = await hook.times();
    expect(got).toHaveLength(8);
    expect(busiestSecond(got), 'arrivals at the receiver').toBeLessThanOrEqual(2);
    expect(
      (await db.delivery.findMany({ where: { endpointId: endpoint.id } })).every(
        (d) => d.status === 'succeeded',
      ),
    ).toBe(true);
  }, 30_000);
});
