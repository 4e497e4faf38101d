import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../server/config/settings';
import { forTenant } from '../server/db/tenant-scope';
import { maxAttempts, runAttempt } from '../server/delivery/attempt';
import { addAttemptJobsSql } from '../server/delivery/worker/queue';
import { recordEvent } from '../server/events/record';
import { createEndpoint } from '../server/webhooks';
import { createTestTenant, type TestTenant } from './helpers';
import { type Receiver, startReceiver } from './webhook-receiver';

// The default schedule (WEBHOOK_RETRY_WAITS unset): 1 s, 5 s, 25 s, 125 s, 625 s, six attempts in all.
// The attempts are driven directly rather than waited for; the queue's own run_at is checked too.
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
    const endpoint = await createEndpoint(db, tenant.tenantId, { url: hook.url, events: ['booking.created'] });
    await db.$transaction((tx) => recordEvent(tx, { tenantId: tenant.tenantId, type: 'booking.created', object: { id: 'b' } }));
    const delivery = await db.delivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });

    const waits: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      const before = Date.now();
      let scheduled: Date | undefined;
      const outcome = await runAttempt(
        { tenantId: tenant.tenantId, deliveryId: delivery.id, attempt },
        {
          scheduleRetry: (next, runAt) => {
            expect(next.attempt).toBe(attempt + 1);
            scheduled = runAt;
            return addAttemptJobsSql([{ job: next, runAt }]);
          },
        },
      );
      if (attempt < 6) {
        expect(outcome).toMatchObject({ kind: 'retry', nextAttempt: attempt + 1 });
        const wait = (scheduled as Date).getTime() - before;
        waits.push(Math.round(wait / 1000));
        // The job for the next attempt is in the queue, due at the same time.
        const job = await db.$queryRaw<{ run_at: Date }[]>`
          select j.run_at from graphile_worker._private_jobs j
          join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = 'switchboard.deliver' and j.payload->>'deliveryId' = ${delivery.id}
            and (j.payload->>'attempt')::int = ${attempt + 1}`;
        expect(job).toHaveLength(1);
        expect(job[0].run_at.getTime()).toBe((scheduled as Date).getTime());
      } else {
        expect(outcome).toEqual({ kind: 'failed', attempt: 6 });
        expect(scheduled).toBeUndefined();
      }
    }
    expect(waits).toEqual([1, 5, 25, 125, 625]);
    expect(hook.received.map((h) => h.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5', '6']);
    const final = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(final).toMatchObject({ status: 'failed', attemptCount: 6, nextAttemptAt: null });

    // A re-run of an attempt already recorded (a job replayed after a crash) sends nothing.
    expect(await runAttempt({ tenantId: tenant.tenantId, deliveryId: delivery.id, attempt: 6 })).toMatchObject({
      kind: 'skipped',
    });
    expect(hook.received).toHaveLength(6);
  });

  it('records a concurrently duplicated attempt once and schedules its retry once', async () => {
    const db = forTenant(tenant.tenantId);
    const endpoint = await createEndpoint(db, tenant.tenantId, { url: hook.url, events: ['payment.created'] });
    await db.$transaction((tx) => recordEvent(tx, { tenantId: tenant.tenantId, type: 'payment.created', object: { id: 'p' } }));
    const delivery = await db.delivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    const job = { tenantId: tenant.tenantId, deliveryId: delivery.id, attempt: 1 };
    const hooks = { scheduleRetry: (next: typeof job, runAt: Date) => addAttemptJobsSql([{ job: next, runAt }]) };
    // Two runs of the same job at once (a job replayed while the first run still works): both may send,
    // only one is recorded and only one next attempt is queued.
    const outcomes = await Promise.all([runAttempt(job, hooks), runAttempt(job, hooks)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['retry', 'skipped']);
    expect(await db.deliveryAttempt.count({ where: { deliveryId: delivery.id } })).toBe(1);
    const jobs = await db.$queryRaw<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs
      where payload->>'deliveryId' = ${delivery.id} and (payload->>'attempt')::int = 2`;
    expect(jobs[0].n).toBe(1);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      attemptCount: 1,
      status: 'pending',
    });
  });
});
