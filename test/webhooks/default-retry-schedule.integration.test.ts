import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { createEndpoint } from '@/server/webhooks';
import { maxAttempts, runAttempt } from '@/server/webhooks/attempt/run-attempt';
import { recordEvent } from '@/server/webhooks/outbox';
import { createTestTenant, type TestTenant } from '../support/helpers';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// The default schedule (WEBHOOK_RETRY_WAITS unset): 1 s, 5 s, 25 s, 125 s, 625 s, six attempts in all.
// The attempts are driven directly rather than waited for; the delivery's next_attempt_at (the
// worker engine's schedule) is checked too.
let tenant: TestTenant;
let hook: Receiver;

beforeAll(async () => {
  delete process.env.WEBHOOK_RETRY_WAITS;
  tenant = await createTestTenant('schedule');
  hook = await startReceiver(() => ({ status: 500 }));
});
afterAll(() => hook.close());

describe('default retry schedule', () => {
  it('is 1s, 5s, 25s, 125s, 625s', () => {
    expect(settings().WEBHOOK_RETRY_WAITS).toEqual([1_000, 5_000, 25_000, 125_000, 625_000]);
    expect(maxAttempts()).toBe(6);
  });

  it('schedules each retry after the next wait, then fails after the sixth attempt', async () => {
    const db = forTenant(tenant.tenantId);
    const endpoint = await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
      url: hook.url,
      events: ['booking.created'],
    });
    await transaction({ tenantId: tenant.tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId: tenant.tenantId,
        type: 'booking.created',
        object: { ...exampleObject('booking.created'), id: 'b' },
      }),
    );
    const delivery = await db.delivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });

    const waits: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      const before = Date.now();
      const outcome = await runAttempt({ tenantId: tenant.tenantId, deliveryId: delivery.id, attempt });
      const row = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
      if (attempt < 6) {
        expect(outcome).toMatchObject({ kind: 'retry', nextAttempt: attempt + 1 });
        // The worker claims the delivery again when next_attempt_at comes.
        expect(row).toMatchObject({ status: 'pending', attemptCount: attempt });
        waits.push(Math.round(((row.nextAttemptAt as Date).getTime() - before) / 1000));
      } else {
        expect(outcome).toEqual({ kind: 'failed', attempt: 6 });
        expect(row.nextAttemptAt).toBeNull();
      }
    }
    expect(waits).toEqual([1, 5, 25, 125, 625]);
    expect(hook.received.map((h) => h.headers['x-service-delivery-attempt'])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    const final = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(final).toMatchObject({ status: 'failed', attemptCount: 6, nextAttemptAt: null });

    // A re-run of an attempt already recorded (a lapsed claim taken again after a crash) sends nothing.
    expect(
      await runAttempt({ tenantId: tenant.tenantId, deliveryId: delivery.id, attempt: 6 }),
    ).toMatchObject({
      kind: 'skipped',
    });
    expect(hook.received).toHaveLength(6);
  });

  it('records a concurrently duplicated attempt once and schedules its retry once', async () => {
    const db = forTenant(tenant.tenantId);
    const endpoint = await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
      url: hook.url,
      events: ['payment.created'],
    });
    await transaction({ tenantId: tenant.tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId: tenant.tenantId,
        type: 'payment.created',
        object: { ...exampleObject('payment.created'), id: 'p' },
      }),
    );
    const delivery = await db.delivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    const job = { tenantId: tenant.tenantId, deliveryId: delivery.id, attempt: 1 };
    // Two runs of the same attempt at once (a lapsed claim taken while the first run still works):
    // both may send, only one is recorded and only one next attempt is scheduled.
    const outcomes = await Promise.all([runAttempt(job), runAttempt(job)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['retry', 'skipped']);
    expect(await db.deliveryAttempt.count({ where: { deliveryId: delivery.id } })).toBe(1);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      attemptCount: 1,
      status: 'pending',
    });
  });
});
