import { type ChildProcess, spawn } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { cancelBooking } from '@/server/domain/bookings/cancel-booking';
import { confirmBooking } from '@/server/domain/bookings/confirm-booking';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createEndpoint } from '@/server/webhooks';
import { createTestTenant, type TestTenant } from '../support/helpers';
import { seededRandom } from '../support/seeded-random';
import { eventually, type Receiver, startReceiver } from '../support/webhook-receiver';

// A stream of booking changes while the delivering process's group is SIGKILLed again
// and again at seeded random points. The delivering process (test/support/processes/crash-stream-process.ts)
// runs the worker and makes booking changes of its own, so kills land in outbox transactions and in
// attempts; this process makes changes too, so events also commit while no worker runs. After the
// final restart every committed change has its event, every event reached each of the 3 receivers
// with a valid signature, and no delivery is left pending or claimed.
//
// Bounds: WEBHOOK_TIMEOUT_MS 1000 makes a dead process's claim lapse after 2 x (1 s + 10 s) = 22 s
// (server/runtime/deliveries/claims.ts), so the final drain takes at most about that long.
const SEED = Number(process.env.CRASH_SEED ?? 20261122);
const KILLS = 12;
const TIMEOUT_MS = '1000';
const WAITS = '100ms,200ms,400ms,800ms,1s';
const LEASE_MS = 2 * (Number(TIMEOUT_MS) + 10_000);

// One generator per purpose, so the kill points do not shift with the number of requests or changes.
const random = seededRandom(SEED);
const answerRandom = seededRandom(SEED + 1);
const changeRandom = seededRandom(SEED + 2);
let tenant: TestTenant;
const receivers: Receiver[] = [];
const secrets = new Map<string, string>(); // receiver url -> webhook secret
const children: ChildProcess[] = [];
let spawned = 0;

function startDeliveringProcess(withChanges: boolean): Promise<ChildProcess> {
  spawned++;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WEBHOOK_RETRY_WAITS: WAITS,
    WEBHOOK_TIMEOUT_MS: TIMEOUT_MS,
    DELIVERY_ENGINE: 'worker',
    CRASH_STREAM_SEED: String(SEED + 100 + spawned),
  };
  if (withChanges) env.CRASH_STREAM_TENANT = tenant.tenantId;
  // Each process logs to a file of its own (test/support/log-scan.ts scans them all).
  if (process.env.LOG_FILE) env.LOG_FILE = process.env.LOG_FILE.replace(/\.log$/, `.child-${spawned}.log`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/processes/crash-stream-process.ts'],
    {
      detached: true, // its own process group, killed as a whole
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) =>
      reject(new Error(`delivering process exited early (${code ?? signal})`)),
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().startsWith('ready')) resolve(child);
    });
  });
}

function killGroup(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  tenant = await createTestTenant('crash-stream');
  const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
  for (let i = 0; i < 3; i++) {
    // Receivers answer after 0-40 ms, so a kill often lands while an attempt waits for its answer.
    const receiver = await startReceiver(() => ({
      status: 200,
      body: 'ok',
      delayMs: Math.floor(answerRandom() * 40),
    }));
    receivers.push(receiver);
    const endpoint = await createEndpoint(ctx, { url: receiver.url, events: ['booking.*'] });
    secrets.set(receiver.url, endpoint.webhook_secret);
  }
});
afterAll(async () => {
  for (const child of children) killGroup(child);
  await Promise.all(receivers.map((r) => r.close()));
});

describe('crash recovery under a stream of changes', () => {
  it(`delivers every committed change to 3 receivers despite ${KILLS} SIGKILLs of the delivering process`, {
    timeout: 150_000,
  }, async () => {
    const started = Date.now();
    const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
    const db = forTenant(tenant.tenantId);

    // This process's own stream of changes, running across the kills and restarts.
    let streaming = true;
    let parentChanges = 0;
    const stream = (async () => {
      for (let n = 0; streaming; n++) {
        const booking = await createBooking(ctx, {
          customer: { name: `Parent ${n}`, email: 'parent@example.test', phone: '+441234567' },
          service: 'Check-up',
          start_at: '2026-12-01T09:00:00.000Z',
          end_at: '2026-12-01T09:30:00.000Z',
        });
        parentChanges++;
        const roll = changeRandom();
        if (roll < 0.5) {
          await confirmBooking(ctx, { id: booking.id });
          parentChanges++;
          if (roll < 0.15) {
            await cancelBooking(ctx, { id: booking.id });
            parentChanges++;
          }
        } else if (roll < 0.7) {
          await cancelBooking(ctx, { id: booking.id });
          parentChanges++;
        }
        await sleep(30 + changeRandom() * 70);
      }
    })();

    let kills = 0;
    for (let i = 0; i < KILLS; i++) {
      const child = await startDeliveringProcess(true);
      await sleep(150 + random() * 1_850); // the seeded kill point
      const exited = new Promise((resolve) => child.once('exit', resolve));
      killGroup(child);
      await exited;
      kills++;
      // Sometimes nobody delivers for a while: events pile up and must still go out.
      if (random() < 0.3) await sleep(random() * 1_000);
    }
    streaming = false;
    await stream;

    // The final restart: a worker only, left to drain (claims of the dead processes lapse first).
    await startDeliveringProcess(false);
    const events = await db.event.findMany({ where: { type: { startsWith: 'booking.' } } });
    const eventIds = new Set(events.map((e) => e.id));
    const drained = await eventually(
      async () => {
        const open = await db.delivery.count({ where: { status: 'pending' } });
        return open === 0 ? true : undefined;
      },
      LEASE_MS + 30_000,
      'every delivery to finish after the final restart',
    );
    expect(drained).toBe(true);

    // Outbox: every committed change has its event, and every event belongs to a committed change.
    const bookings = await db.booking.findMany();
    const byObject = new Map<string, Set<string>>();
    for (const event of events) {
      const objectId = (event.payload as { data: { object: { id: string } } }).data.object.id;
      byObject.set(objectId, (byObject.get(objectId) ?? new Set()).add(event.type));
    }
    expect(bookings.length).toBeGreaterThan(0);
    for (const booking of bookings) {
      const types = byObject.get(booking.id) ?? new Set();
      expect(types.has('booking.created'), `booking.created of ${booking.id}`).toBe(true);
      if (booking.status === 'confirmed') expect(types.has('booking.confirmed')).toBe(true);
      if (booking.status === 'cancelled') expect(types.has('booking.cancelled')).toBe(true);
      if (types.has('booking.confirmed')) expect(['confirmed', 'cancelled']).toContain(booking.status);
      if (types.has('booking.cancelled')) expect(booking.status).toBe('cancelled');
    }
    expect(byObject.size).toBe(bookings.length);

    // Every event reached each receiver at least once, signed as the contract says.
    for (const receiver of receivers) {
      const verifier = new Webhook(secrets.get(receiver.url) as string);
      const seen = new Set<string>();
      for (const hit of receiver.received) {
        const payload = verifier.verify(hit.body, {
          'webhook-id': hit.headers['webhook-id'] as string,
          'webhook-timestamp': hit.headers['webhook-timestamp'] as string,
          'webhook-signature': hit.headers['webhook-signature'] as string,
        }) as { id: string };
        expect(payload.id).toBe(hit.headers['webhook-id']);
        seen.add(payload.id);
      }
      const missing = [...eventIds].filter((id) => !seen.has(id));
      expect(missing, `events never received by ${receiver.url}`).toEqual([]);
    }

    // Nothing stuck: one delivery per event and receiver, all succeeded, no claim left.
    const deliveries = await db.delivery.findMany({ select: { status: true, claim: true } });
    expect(deliveries).toHaveLength(events.length * receivers.length);
    expect(deliveries.every((d) => d.status === 'succeeded' && d.claim === null)).toBe(true);

    const requests = receivers.reduce((sum, r) => sum + r.received.length, 0);
    console.log(
      `crash-stream: seed ${SEED}, ${kills} SIGKILLs, ${events.length} events (${bookings.length} bookings, ` +
        `${parentChanges} changes from the test process, the rest from the killed ones), ` +
        `${deliveries.length} deliveries, ${requests} requests received (${requests - deliveries.length} ` +
        `duplicates), ${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(kills).toBeGreaterThanOrEqual(10);
  });
});
