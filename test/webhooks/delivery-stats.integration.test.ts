// GET /webhooks/{id}/stats (docs/operations.md "Webhook operations") and the dashboard's overview: attempts per UTC hour or
// day, latency percentiles, totals, validation. Attempt rows are written with chosen times and
// latencies (the engines write them the same way; delivery-filters.integration.test.ts checks that
// real attempts carry their endpoint), on deliveries recorded by the outbox.
import { beforeAll, describe, expect, it } from 'vitest';
import { startWebSession } from '@/server/auth/web-sessions';
import { db } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { exampleObject } from '@/server/events/payloads';
import { newId } from '@/server/lib/ids';
import { viewerFromSession } from '@/server/trpc/membership';
import { createCaller } from '@/server/trpc/root';
import { CLOSED_AFTER_MS } from '@/server/webhooks/deliveries/delivery-stats';
import { recordEvent } from '@/server/webhooks/outbox';
import { givenBooking, givenConversation, givenEndpoint } from '../support/builders';
import { apiSuite, type SuiteTenant } from '../support/harness';

const { tenant: a, other: b } = apiSuite({ other: true });
const HOUR = 3_600_000;
const hourStart = (t: number) => Math.floor(t / HOUR) * HOUR;
const now = Date.now();
const thisHour = hourStart(now);
let endpoint: string; // its newest attempt failed
let healthy: string; // its newest attempt succeeded
let otherTenantEndpoint: string;

async function deliveriesOf(tenant: SuiteTenant, type: 'booking.created' | 'payment.created', count: number) {
  const scoped = forTenant(tenant.tenantId);
  for (let i = 0; i < count; i++) {
    await transaction({ tenantId: tenant.tenantId }, (tx) =>
      recordEvent(tx, {
        tenantId: tenant.tenantId,
        type,
        object: { ...exampleObject(type), id: `obj_${i}` },
      }),
    );
  }
  return scoped.delivery.findMany({ where: { eventType: type }, orderBy: { id: 'asc' } });
}

/** Attempt rows at chosen times: [delivery, minutes after `base`, succeeded, latency]. */
async function attempts(
  rows: [{ id: string; endpointId: string; tenantId: string }, number, boolean, number][],
) {
  let n = 0;
  for (const [delivery, at, succeeded, latency] of rows) {
    n++;
    await db().$executeRaw`insert into delivery_attempts
      (id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded, response_status, latency_ms)
      values (${newId('deliveryAttempt')}, ${delivery.tenantId}::uuid, ${delivery.id}, ${delivery.endpointId}, ${n},
        ${new Date(at).toISOString()}::timestamptz, ${succeeded}, ${succeeded ? 200 : 500}, ${latency})`;
  }
}

beforeAll(async () => {
  endpoint = (await givenEndpoint(a.admin, 'http://127.0.0.1:9/a', ['booking.*'])).id;
  healthy = (await givenEndpoint(a.admin, 'http://127.0.0.1:9/b', ['payment.*'])).id;
  otherTenantEndpoint = (await givenEndpoint(b.admin, 'http://127.0.0.1:9/c', ['*'])).id;
  const mine = await deliveriesOf(a, 'booking.created', 3);
  const [paid] = await deliveriesOf(a, 'payment.created', 1);
  const [theirs] = await deliveriesOf(b, 'booking.created', 1);
  const [d1] = mine;
  const threeHoursAgo = thisHour - 3 * HOUR;
  await attempts([
    // Three hours ago: 3 succeeded (10, 20, 30 ms) and one failure (1000 ms).
    [d1, threeHoursAgo + 1 * 60_000, true, 10],
    [d1, threeHoursAgo + 2 * 60_000, true, 30],
    [d1, threeHoursAgo + 3 * 60_000, true, 20],
    [d1, threeHoursAgo + 59 * 60_000, false, 1000],
    // Two hours ago: one failure; this hour, the newest, a failure.
    [d1, thisHour - 2 * HOUR + 30 * 60_000, false, 500],
    [d1, Math.min(now - 1000, thisHour + 1000), false, 40],
    // Two days ago (outside the default window, inside the daily one).
    [d1, thisHour - 48 * HOUR, true, 7],
  ]);
  // Another endpoint and another tenant: never counted in `endpoint`'s stats.
  await attempts([
    [paid, thisHour - 3 * HOUR + 5 * 60_000, true, 99],
    [theirs, thisHour - 3 * HOUR + 5 * 60_000, false, 99],
  ]);
}, 60_000);

async function stats(query = '', tenant = a, id = endpoint) {
  const res = await tenant.admin('GET', `/webhooks/${id}/stats${query}`);
  return res;
}

describe('GET /webhooks/{id}/stats', () => {
  it('defaults to the last 24 hours by hour, the current hour last', async () => {
    const res = await stats();
    expect(res.status, res.text).toBe(200);
    const { buckets, totals } = res.body;
    expect(buckets).toHaveLength(24);
    expect(buckets[23].start).toBe(new Date(thisHour).toISOString());
    expect(buckets[0].start).toBe(new Date(thisHour - 23 * HOUR).toISOString());
    const at = (hoursAgo: number) => buckets[23 - hoursAgo];
    expect(at(3)).toEqual({
      start: new Date(thisHour - 3 * HOUR).toISOString(),
      succeeded: 3,
      failed: 1,
      latency_p50_ms: 20,
      latency_p95_ms: 1000,
    });
    expect(at(2)).toMatchObject({ succeeded: 0, failed: 1, latency_p50_ms: 500, latency_p95_ms: 500 });
    expect(at(1)).toEqual({
      start: new Date(thisHour - HOUR).toISOString(),
      succeeded: 0,
      failed: 0,
      latency_p50_ms: null,
      latency_p95_ms: null,
    });
    expect(at(0)).toMatchObject({ succeeded: 0, failed: 1 });
    // The three deliveries were never attempted by an engine here: they are still pending.
    expect(totals).toEqual({ succeeded: 3, failed: 3, pending: 3 });
  });

  it('keeps closed buckets and counts the current one live', async () => {
    const first = (await stats()).body;
    const kept = await db().deliveryStatsRollup.findMany({
      where: { tenantId: a.tenantId, endpointId: endpoint, bucket: 'hour' },
    });
    // The closed hours of the window are stored (empty ones too): 23, or 22 in the first minutes of an
    // hour (the previous one may still get attempts); the current hour never.
    expect(kept).toHaveLength(Date.now() - thisHour > CLOSED_AFTER_MS ? 23 : 22);
    expect(kept.some((r) => r.start.getTime() === thisHour)).toBe(false);
    expect(kept.find((r) => r.start.getTime() === thisHour - 3 * HOUR)).toMatchObject({
      succeeded: 3,
      failed: 1,
      latencyP50Ms: 20,
      latencyP95Ms: 1000,
    });
    // Served from the stored buckets, the answer is the same; a new attempt of this hour shows at once.
    expect((await stats()).body).toEqual(first);
    const [delivery] = await forTenant(a.tenantId).delivery.findMany({
      where: { endpointId: endpoint },
      take: 1,
    });
    await db().$executeRaw`insert into delivery_attempts
      (id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded, response_status, latency_ms)
      values (${newId('deliveryAttempt')}, ${a.tenantId}::uuid, ${delivery.id}, ${endpoint}, 99, now(), true, 200, 5)`;
    const after = (await stats()).body;
    expect(after.buckets[23].succeeded).toBe(first.buckets[23].succeeded + 1);
    await db()
      .$executeRaw`delete from delivery_attempts where attempt_number = 99 and delivery_id = ${delivery.id}`;
  });

  it('counts only [since, until), in buckets on UTC hours', async () => {
    const since = new Date(thisHour - 3 * HOUR + 2 * 60_000).toISOString(); // skips the 10 ms attempt
    const until = new Date(thisHour - 3 * HOUR + 59 * 60_000).toISOString(); // excludes the failure at :59
    const res = await stats(`?since=${since}&until=${until}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.buckets).toEqual([
      {
        start: new Date(thisHour - 3 * HOUR).toISOString(),
        succeeded: 2,
        failed: 0,
        latency_p50_ms: 20,
        latency_p95_ms: 30,
      },
    ]);
    expect(res.body.totals).toMatchObject({ succeeded: 2, failed: 0 });
  });

  it('by day: 30 UTC days by default, or the given window', async () => {
    const res = await stats('?bucket=day');
    expect(res.status, res.text).toBe(200);
    expect(res.body.buckets).toHaveLength(30);
    const days = res.body.buckets as { start: string; succeeded: number; failed: number }[];
    expect(days.every((d) => d.start.endsWith('T00:00:00.000Z'))).toBe(true);
    expect(days.reduce((s, d) => s + d.succeeded, 0)).toBe(4);
    expect(days.reduce((s, d) => s + d.failed, 0)).toBe(3);
    const twoDaysAgo = new Date(thisHour - 48 * HOUR);
    const day = new Date(
      Date.UTC(twoDaysAgo.getUTCFullYear(), twoDaysAgo.getUTCMonth(), twoDaysAgo.getUTCDate()),
    );
    const one = await stats(
      `?bucket=day&since=${day.toISOString()}&until=${new Date(+day + 86_400_000).toISOString()}`,
    );
    expect(one.body.buckets).toEqual([
      { start: day.toISOString(), succeeded: 1, failed: 0, latency_p50_ms: 7, latency_p95_ms: 7 },
    ]);
  });

  it('counts its own endpoint only', async () => {
    const res = await stats('', a, healthy);
    expect(res.body.totals).toEqual({ succeeded: 1, failed: 0, pending: 1 });
  });

  it.each([
    ['?since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z', 'until'],
    ['?since=2026-11-01T00:00:00Z&until=2026-11-01T00:00:00Z', 'until'],
    ['?since=last-week', 'since'],
    ['?until=soon', 'until'],
    ['?bucket=week', 'bucket'],
    ['?since=2025-01-01T00:00:00Z&until=2026-01-01T00:00:00Z', 'bucket'],
    ['?bucket=day&since=2020-01-01T00:00:00Z&until=2026-01-01T00:00:00Z', 'bucket'],
  ])('422 naming the parameter: %s', async (query, field) => {
    const res = await stats(query);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  it('answers 404 for an endpoint of another tenant', async () => {
    expect((await stats('', a, otherTenantEndpoint)).status).toBe(404);
    expect((await stats('', b, endpoint)).status).toBe(404);
  });
});

describe('dashboard: webhooks.stats and overview.get', () => {
  it('gives the same buckets, and the tenant overview', async () => {
    const viewer = await viewerFromSession({
      user: { id: a.adminUserId, email: a.adminEmail, name: 'A' },
      tenantId: a.tenantId,
      sid: await startWebSession(a.adminUserId),
    });
    const caller = createCaller({ viewer });
    expect(await caller.webhooks.getWebhookStats({ id: endpoint })).toEqual((await stats()).body);

    const start = new Date(Date.now() + HOUR);
    await givenBooking(a.admin, 'pending', {
      start_at: start.toISOString(),
      end_at: new Date(+start + 1_800_000).toISOString(),
    });
    const conversation = await givenConversation(a.admin);
    expect(
      (await a.admin('POST', `/conversations/${conversation.id}/handoff`, { body: { reason: 'help' } }))
        .status,
    ).toBe(200);
    await a.admin('PATCH', `/webhooks/${healthy}`, { body: { is_active: false } });

    const overview = await caller.overview.get({
      dayStart: new Date(Date.now() - HOUR).toISOString(),
      dayEnd: new Date(Date.now() + 2 * HOUR).toISOString(),
    });
    // Both endpoints of the tenant, never the other tenant's attempt.
    expect(overview.deliveries.totals).toMatchObject({ succeeded: 4, failed: 3 });
    expect(overview.deliveries.buckets[20]).toMatchObject({ succeeded: 4, failed: 1 });
    expect(overview.endpoints).toEqual([
      expect.objectContaining({ id: endpoint, state: 'failing', consecutive_failures: 3 }),
      expect.objectContaining({ id: healthy, state: 'disabled', consecutive_failures: 0 }),
    ]);
    expect(overview.handoff_queue).toBe(1);
    expect(overview.bookings_today).toBe(1);
    expect(overview.next_bookings[0].start_at).toBe(start.toISOString());
    await expect(
      caller.overview.get({ dayStart: new Date().toISOString(), dayEnd: new Date(0).toISOString() }),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });
  });
});
