import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { createEndpoint } from '@/server/webhooks';
import { recordEvent } from '@/server/webhooks/outbox';
import { createTestTenant, type TestTenant } from '../support/helpers';
import { eventually, type Receiver, startReceiver } from '../support/webhook-receiver';

// The worker runs in a child process group that is SIGKILLed in the middle of an attempt. After a
// restart the delivery must resume on its own once the dead process's claim lapses (2 x (deadline
// + 10 s): 30 s with this 5 s deadline) and complete, with at most the interrupted attempt sent twice.
const WAITS = '200ms,200ms,200ms';
const TIMEOUT_MS = '5000';
let tenant: TestTenant;
let hook: Receiver;
const children: ChildProcess[] = [];

function startWorkerProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/processes/worker-process.ts'], {
    detached: true, // its own process group, killed as a whole
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      WEBHOOK_RETRY_WAITS: WAITS,
      WEBHOOK_TIMEOUT_MS: TIMEOUT_MS,
      DELIVERY_ENGINE: 'worker',
    },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().startsWith('ready')) resolve(child);
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // already gone
  }
}

beforeAll(async () => {
  process.env.WEBHOOK_RETRY_WAITS = WAITS;
  tenant = await createTestTenant('crash');
  // Attempt 1 fails, attempt 2 hangs (the process is killed while it waits), later requests succeed.
  hook = await startReceiver((i) =>
    i === 0 ? { status: 500 } : i === 1 ? { status: 200, delayMs: 120_000 } : { status: 200 },
  );
});
afterAll(async () => {
  for (const child of children) killGroup(child, 'SIGKILL');
  await hook.close();
});

describe('crash recovery of the worker engine', () => {
  it('resumes a delivery after SIGKILL of the worker process group mid-attempt', {
    timeout: 120_000,
  }, async () => {
    const db = forTenant(tenant.tenantId);
    const endpoint = await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
      url: hook.url,
      events: ['booking.confirmed'],
    });
    const first = await startWorkerProcess();
    const event = await transaction({ tenantId: tenant.tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId: tenant.tenantId,
        type: 'booking.confirmed',
        object: { ...exampleObject('booking.confirmed'), id: 'bkg_crash' },
      }),
    );
    await hook.waitFor(2); // attempt 2 is in flight now
    killGroup(first, 'SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const delivery = await db.delivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1 });
    // Still claimed by the dead process.
    expect(await db.deliveryClaim.findUnique({ where: { deliveryId: delivery.id } })).not.toBeNull();

    await startWorkerProcess();
    const done = await eventually(
      async () => {
        const row = await db.delivery.findUniqueOrThrow({
          where: { id: delivery.id },
          include: { attempts: true },
        });
        return row.status === 'pending' ? undefined : row;
      },
      60_000,
      'the delivery to complete after the restart',
    );
    expect(done).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    expect(done.attempts.map((a) => [a.attemptNumber, a.responseStatus]).sort()).toEqual([
      [1, 500],
      [2, 200],
    ]);
    // At-least-once: the interrupted attempt was sent again, nothing else was duplicated.
    expect(hook.received.map((h) => h.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '2']);
    expect(hook.received.every((h) => h.headers['webhook-id'] === event.id)).toBe(true);
  });
});
