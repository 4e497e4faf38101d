import { afterAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { runAttempt } from '@/server/webhooks/attempt/run-attempt';
import { recordBookingEvents } from '@/test/support/domain-fixtures';
import { apiSuite, type SuiteTenant } from '../support/harness';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// POST /webhooks/{id}/recover (docs/operations.md "Webhook operations").
process.env.WEBHOOK_RETRY_WAITS = '50ms,50ms';
process.env.WEBHOOK_TIMEOUT_MS = '1000';
process.env.WEBHOOK_DISABLE_AFTER_FAILURES = '0';
resetSettingsCache();

const { newTenant } = apiSuite({ tenant: false });
const receivers: Receiver[] = [];
let worker: DeliveryWorker | undefined;
afterAll(async () => {
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

/** A tenant whose endpoint's receiver fails until `healthy.now` is set, with `count` failed deliveries. */
async function withFailedDeliveries(count: number) {
  const t = await newTenant('recover');
  const healthy = { now: false };
  const hook = await startReceiver(() => ({ status: healthy.now ? 200 : 500 }));
  receivers.push(hook);
  const endpoint = (await t.admin('POST', '/webhooks', { body: { url: hook.url, events: ['booking.*'] } }))
    .body;
  const db = forTenant(t.tenantId);
  await recordBookingEvents(t.tenantId, count);
  const deliveries = await db.delivery.findMany({
    where: { endpointId: endpoint.id },
    orderBy: { id: 'asc' },
  });
  for (const d of deliveries) {
    for (let n = 1; n <= 3; n++) await runAttempt({ tenantId: t.tenantId, deliveryId: d.id, attempt: n });
  }
  hook.received.length = 0;
  return { t, db, hook, healthy, endpoint, deliveries };
}

const recover = (t: SuiteTenant, id: string, body: unknown) =>
  t.admin('POST', `/webhooks/${id}/recover`, { body });

describe('POST /webhooks/{id}/recover', () => {
  it('dry run: 200 with the count of failed deliveries created in [since, until); nothing changes', async () => {
    const { t, db, endpoint, deliveries } = await withFailedDeliveries(4);
    expect(deliveries).toHaveLength(4);
    // Two of them are from yesterday; one succeeded since, so it is not failed any more.
    const yesterday = new Date(Date.now() - 86_400_000);
    await db.delivery.updateMany({
      where: { id: { in: [deliveries[0].id, deliveries[1].id] } },
      data: { createdAt: yesterday },
    });
    await db.delivery.update({ where: { id: deliveries[3].id }, data: { status: 'succeeded' } });
    const before = await db.delivery.findMany({ orderBy: { id: 'asc' } });

    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    expect(await recover(t, endpoint.id, { since: hourAgo, dry_run: true })).toMatchObject({
      status: 200,
      body: { count: 1 },
    });
    const since = new Date(yesterday.getTime() - 1_000).toISOString();
    expect((await recover(t, endpoint.id, { since, dry_run: true })).body).toEqual({ count: 3 });
    // until is exclusive.
    expect(
      (await recover(t, endpoint.id, { since, until: yesterday.toISOString(), dry_run: true })).body,
    ).toEqual({ count: 0 });
    expect(await db.delivery.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
  });

  it('202: the same deliveries go back to pending and get a new round of attempts', async () => {
    const { t, db, hook, healthy, endpoint, deliveries } = await withFailedDeliveries(2);
    const since = new Date(Date.now() - 60_000).toISOString();
    const { status, body } = await recover(t, endpoint.id, { since });
    expect(status).toBe(202);
    expect(body).toEqual({ count: 2 });
    const requeued = await db.delivery.findMany({
      where: { endpointId: endpoint.id },
      orderBy: { id: 'asc' },
    });
    expect(requeued.map((d) => [d.id, d.eventId, d.status, d.attemptCount, d.attemptBase])).toEqual(
      deliveries.map((d) => [d.id, d.eventId, 'pending', 3, 3]),
    );
    // Nothing else is failed now: a second recovery finds nothing.
    expect((await recover(t, endpoint.id, { since })).body).toEqual({ count: 0 });

    healthy.now = true;
    worker = await startDeliveryWorker({ pollIntervalMs: 20 });
    const got = await hook.waitFor(2);
    expect(got.map((h) => h.headers['webhook-id']).sort()).toEqual(deliveries.map((d) => d.eventId).sort());
    // A new round: the receiver sees attempt 1 again; the log numbers it after the earlier three.
    expect(got.map((h) => h.headers['x-service-delivery-attempt'])).toEqual(['1', '1']);
    await expect
      .poll(async () =>
        (await db.delivery.findMany({ where: { endpointId: endpoint.id } })).map((d) => d.status),
      )
      .toEqual(['succeeded', 'succeeded']);
    const { body: detail } = await t.admin('GET', `/deliveries/${deliveries[0].id}`);
    expect(detail.attempts.map((a: { attempt_number: number }) => a.attempt_number)).toEqual([1, 2, 3, 4]);
    expect(detail.status).toBe('succeeded');
    await worker.stop();
    worker = undefined;
  });

  it('a recovered round that fails again ends failed after its own full schedule', async () => {
    const { t, db, hook, endpoint, deliveries } = await withFailedDeliveries(1);
    await recover(t, endpoint.id, { since: new Date(Date.now() - 60_000).toISOString() });
    const d = deliveries[0];
    expect(await runAttempt({ tenantId: t.tenantId, deliveryId: d.id, attempt: 4 })).toMatchObject({
      kind: 'retry',
    });
    expect(await runAttempt({ tenantId: t.tenantId, deliveryId: d.id, attempt: 5 })).toMatchObject({
      kind: 'retry',
    });
    expect(await runAttempt({ tenantId: t.tenantId, deliveryId: d.id, attempt: 6 })).toEqual({
      kind: 'failed',
      attempt: 6,
    });
    expect(hook.received.map((h) => h.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: d.id } })).toMatchObject({
      status: 'failed',
      attemptCount: 6,
    });
  });

  it('requeues in batches: every failed delivery once, whatever their number', async () => {
    const { t, db, endpoint, deliveries } = await withFailedDeliveries(1);
    // 2,500 more failed deliveries of the same event, written directly (more than two batches).
    await db.$executeRaw`
      insert into deliveries (id, tenant_id, event_id, event_type, endpoint_id, status, attempt_count, created_at)
      select 'dlv_bulk_' || lpad(n::text, 5, '0'), ${t.tenantId}::uuid, ${deliveries[0].eventId}, 'booking.created',
        ${endpoint.id}, 'failed', 3, now() - interval '1 minute'
      from generate_series(1, 2500) as n`;
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect((await recover(t, endpoint.id, { since, dry_run: true })).body).toEqual({ count: 2501 });
    expect(await recover(t, endpoint.id, { since })).toMatchObject({ status: 202, body: { count: 2501 } });
    expect(
      await db.delivery.count({ where: { endpointId: endpoint.id, status: 'pending', attemptBase: 3 } }),
    ).toBe(2501);
  });

  it('refuses a disabled endpoint with 409 endpoint_disabled', async () => {
    const { t, endpoint } = await withFailedDeliveries(1);
    await t.admin('PATCH', `/webhooks/${endpoint.id}`, { body: { is_active: false } });
    const { status, body } = await recover(t, endpoint.id, { since: '2020-01-01T00:00:00Z' });
    expect(status).toBe(409);
    expect(body.code).toBe('endpoint_disabled');
  });

  it('answers 422 naming the field for bad input, 404 for an unknown endpoint', async () => {
    const { t, endpoint } = await withFailedDeliveries(0);
    const cases: [unknown, string][] = [
      [{}, 'since'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' }, 'until'],
      [{ since: '2026-01-02T00:00:00Z', until: '2026-01-02T00:00:00Z' }, 'until'],
      [{ since: '2026-01-02T00:00:00Z', dry_run: 'yes' }, 'dry_run'],
    ];
    for (const [body, path] of cases) {
      const answer = await recover(t, endpoint.id, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await recover(t, 'whe_unknown', { since: '2026-01-01T00:00:00Z' })).status).toBe(404);
  });
});
