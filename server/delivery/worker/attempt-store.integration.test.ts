import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTenant, type TestTenant } from '../../../test/helpers';
import { databaseUrl } from '../../db/client';
import { forTenant } from '../../db/tenant-scope';
import type { EventType } from '../../events/catalog';
import { recordEvent } from '../../events/record';
import { newId } from '../../lib/ids';
import { createEndpoint } from '../../webhooks';
import type { AttemptJob, AttemptRecord } from '../attempt';
import { batched, workerAttemptStore } from './attempt-store';

// The worker's store writes the records of concurrent attempts in one statement; each record must
// still behave as if written alone.
let tenant: TestTenant;
let pool: pg.Pool;

beforeAll(async () => {
  tenant = await createTestTenant('attempt store');
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
});
afterAll(() => pool.end());

async function newDeliveries(count: number, type: EventType): Promise<AttemptJob[]> {
  const db = forTenant(tenant.tenantId);
  await createEndpoint(db, tenant.tenantId, { url: 'http://127.0.0.1:9/hook', events: [type] });
  for (let i = 0; i < count; i++) {
    await db.$transaction((tx) => recordEvent(tx, { tenantId: tenant.tenantId, type, object: { id: `o${i}` } }));
  }
  const deliveries = await db.delivery.findMany({ where: { event: { type } }, orderBy: { id: 'asc' } });
  return deliveries.map((d) => ({ tenantId: tenant.tenantId, deliveryId: d.id, attempt: 1 }));
}

function failedAttempt(job: AttemptJob, retryAt: Date | null): AttemptRecord {
  return {
    id: newId('deliveryAttempt'),
    job,
    startedAt: new Date(),
    result: { ok: false, status: 500, latencyMs: 3, excerpt: 'no', error: 'http_status: the endpoint answered 500' },
    status: retryAt ? 'pending' : 'failed',
    nextAttemptAt: retryAt,
    retry: retryAt ? { job: { ...job, attempt: job.attempt + 1 }, runAt: retryAt } : null,
  };
}

async function queuedAttempts(deliveryId: string): Promise<number[]> {
  const { rows } = await pool.query<{ attempt: number }>(
    `select (payload->>'attempt')::int as attempt from graphile_worker._private_jobs
     where payload->>'deliveryId' = $1 order by 1`,
    [deliveryId],
  );
  return rows.map((r) => r.attempt);
}

describe('worker attempt store', () => {
  it('records attempts arriving together in one batch, each with its own state and retry', async () => {
    const [a, b, c] = await newDeliveries(3, 'booking.created');
    const store = workerAttemptStore(pool);
    const retryAt = new Date(Date.now() + 60_000);
    const results = await Promise.all([
      store.record(failedAttempt(a, retryAt)),
      // The same attempt twice at once (a duplicated job): recorded once, its retry queued once.
      store.record(failedAttempt(a, retryAt)),
      store.record(failedAttempt(b, null)),
      store.record({
        ...failedAttempt(c, null),
        status: 'succeeded',
        result: { ok: true, status: 200, latencyMs: 2, excerpt: '', error: null },
      }),
    ]);
    expect(results).toEqual([true, false, true, true]);

    const db = forTenant(tenant.tenantId);
    const rows = await db.delivery.findMany({ where: { id: { in: [a.deliveryId, b.deliveryId, c.deliveryId] } } });
    const byId = new Map(rows.map((d) => [d.id, d]));
    expect(byId.get(a.deliveryId)).toMatchObject({ status: 'pending', attemptCount: 1, nextAttemptAt: retryAt });
    expect(byId.get(b.deliveryId)).toMatchObject({ status: 'failed', attemptCount: 1, nextAttemptAt: null });
    expect(byId.get(c.deliveryId)).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect(await db.deliveryAttempt.count({ where: { deliveryId: a.deliveryId } })).toBe(1);
    // Attempt 1's jobs came from the outbox; the store added exactly one attempt 2, for a only.
    expect(await queuedAttempts(a.deliveryId)).toEqual([1, 2]);
    expect(await queuedAttempts(b.deliveryId)).toEqual([1]);

    // A later re-run of a recorded attempt records nothing and queues nothing.
    expect(await store.record(failedAttempt(a, retryAt))).toBe(false);
    expect(await queuedAttempts(a.deliveryId)).toEqual([1, 2]);
  });

  it('only fails the caller whose record cannot be written when its batch fails', async () => {
    const [good] = await newDeliveries(1, 'payment.created');
    const store = workerAttemptStore(pool);
    const gone = { tenantId: tenant.tenantId, deliveryId: 'dlv_does_not_exist', attempt: 1 };
    const [ok, bad] = await Promise.allSettled([
      store.record(failedAttempt(good, null)),
      store.record(failedAttempt(gone, null)),
    ]);
    expect(ok).toEqual({ status: 'fulfilled', value: true });
    expect(bad.status).toBe('rejected');
  });

  it('loads a delivery only within its own tenant', async () => {
    const [job] = await newDeliveries(1, 'conversation.created');
    const store = workerAttemptStore(pool);
    expect(await store.load(job)).toMatchObject({ id: job.deliveryId, status: 'pending', isActive: true });
    const other = await createTestTenant('other tenant');
    expect(await store.load({ ...job, tenantId: other.tenantId })).toBeUndefined();
  });
});

describe('batched', () => {
  it('runs inputs that arrive while a call is under way together, in order', async () => {
    const calls: number[][] = [];
    const double = batched(async (inputs: number[]) => {
      calls.push(inputs);
      await new Promise((resolve) => setTimeout(resolve, 10));
      return inputs.map((n) => n * 2);
    });
    const first = double(1);
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(await Promise.all([first, double(2), double(3), double(4)])).toEqual([2, 4, 6, 8]);
    expect(calls).toEqual([[1], [2, 3, 4]]);
  });
});
