import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '@/server/client-safe/event-catalog';
import { databaseUrl } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { newId } from '@/server/lib/ids';
import { createEndpoint } from '@/server/webhooks';
import type { AttemptJob, AttemptRecord } from '@/server/webhooks/attempt/run-attempt';
import { recordEvent } from '@/server/webhooks/outbox';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { batched, batchedAttemptRecorder } from './attempt-store';

// The worker writes the records of concurrent attempts in one statement; each record must still
// behave as if written alone.
let tenant: TestTenant;
let pool: pg.Pool;
const endpointOf = new Map<string, string>();

beforeAll(async () => {
  tenant = await createTestTenant('attempt store');
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
});
afterAll(() => pool.end());

async function newDeliveries(count: number, type: EventType): Promise<AttemptJob[]> {
  const db = forTenant(tenant.tenantId);
  await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
    url: 'http://127.0.0.1:9/hook',
    events: [type],
  });
  for (let i = 0; i < count; i++) {
    await transaction({ tenantId: tenant.tenantId }, (tx) =>
      recordEvent(tx, { tenantId: tenant.tenantId, type, object: { ...exampleObject(type), id: `o${i}` } }),
    );
  }
  const deliveries = await db.delivery.findMany({ where: { event: { type } }, orderBy: { id: 'asc' } });
  for (const d of deliveries) endpointOf.set(d.id, d.endpointId);
  return deliveries.map((d) => ({ tenantId: tenant.tenantId, deliveryId: d.id, attempt: 1 }));
}

function failedAttempt(job: AttemptJob, retryAt: Date | null): AttemptRecord {
  return {
    id: newId('deliveryAttempt'),
    job,
    endpointId: endpointOf.get(job.deliveryId) ?? 'whe_unknown',
    notice: false,
    startedAt: new Date(),
    result: {
      ok: false,
      status: 500,
      latencyMs: 3,
      excerpt: 'no',
      error: 'http_status: the endpoint answered 500',
    },
    status: retryAt ? 'pending' : 'failed',
    nextAttemptAt: retryAt,
  };
}

describe('worker attempt recorder', () => {
  it('records attempts arriving together in one batch, each with its own state and schedule', async () => {
    const [a, b, c] = await newDeliveries(3, 'booking.created');
    // The worker's claims on them, which recording ends.
    await pool.query(
      `insert into delivery_claims (delivery_id, tenant_id, endpoint_id, locked_until)
       select id, tenant_id, endpoint_id, now() + interval '1 minute' from deliveries where id = any($1::text[])`,
      [[a, b, c].map((j) => j.deliveryId)],
    );
    // Every statement the recorder sends: a batch is one (no transaction around it).
    const sent: string[] = [];
    const counted = {
      query: (query: pg.QueryConfig) => {
        sent.push(query.text);
        return pool.query(query);
      },
    } as unknown as pg.Pool;
    const record = batchedAttemptRecorder(counted);
    const retryAt = new Date(Date.now() + 60_000);
    const results = await Promise.all([
      record(failedAttempt(a, retryAt)),
      // The same attempt twice at once (a duplicated run): recorded once.
      record(failedAttempt(a, retryAt)),
      record(failedAttempt(b, null)),
      record({
        ...failedAttempt(c, null),
        status: 'succeeded',
        result: { ok: true, status: 200, latencyMs: 2, excerpt: '', error: null },
      }),
    ]);
    expect(results).toEqual([true, false, true, true]);
    expect(sent).toHaveLength(1);

    const db = forTenant(tenant.tenantId);
    const rows = await db.delivery.findMany({
      where: { id: { in: [a.deliveryId, b.deliveryId, c.deliveryId] } },
    });
    const byId = new Map(rows.map((d) => [d.id, d]));
    expect(byId.get(a.deliveryId)).toMatchObject({
      status: 'pending',
      attemptCount: 1,
      nextAttemptAt: retryAt,
      lastResponseStatus: 500,
    });
    expect(byId.get(b.deliveryId)).toMatchObject({
      status: 'failed',
      attemptCount: 1,
      nextAttemptAt: null,
    });
    expect(byId.get(c.deliveryId)).toMatchObject({
      status: 'succeeded',
      attemptCount: 1,
      lastResponseStatus: 200,
    });
    expect(await db.deliveryClaim.count({ where: { deliveryId: { in: [...byId.keys()] } } })).toBe(0);
    expect(await db.deliveryAttempt.count({ where: { deliveryId: a.deliveryId } })).toBe(1);
    // Each attempt row names its delivery's endpoint (the stats read attempts by endpoint).
    const attempt = await db.deliveryAttempt.findFirstOrThrow({ where: { deliveryId: a.deliveryId } });
    expect(attempt.endpointId).toBe(byId.get(a.deliveryId)?.endpointId);

    // A later re-run of a recorded attempt records nothing and moves nothing.
    const later = new Date(Date.now() + 120_000);
    expect(await record(failedAttempt(a, later))).toBe(false);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: a.deliveryId } })).toMatchObject({
      nextAttemptAt: retryAt,
    });
  });

  it('only fails the caller whose record cannot be written when its batch fails', async () => {
    const [good] = await newDeliveries(1, 'payment.created');
    const record = batchedAttemptRecorder(pool);
    const gone = { tenantId: tenant.tenantId, deliveryId: 'dlv_does_not_exist', attempt: 1 };
    const [ok, bad] = await Promise.allSettled([
      record(failedAttempt(good, null)),
      record(failedAttempt(gone, null)),
    ]);
    expect(ok).toEqual({ status: 'fulfilled', value: true });
    expect(bad.status).toBe('rejected');
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
