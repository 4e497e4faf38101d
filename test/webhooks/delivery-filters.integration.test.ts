// docs/operations.md "Webhook operations" filters on GET /deliveries and GET /webhooks/{id}/deliveries (and the dashboard's
// webhooks.deliveries procedure): real deliveries sent by the worker to loopback receivers that
// answer 200, 404 and 503, and to a port where nothing listens (no response status).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebSession } from '@/server/auth/web-sessions';
import { resetSettingsCache } from '@/server/config/settings';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { viewerFromSession } from '@/server/trpc/membership';
import { createCaller } from '@/server/trpc/root';
import { givenBooking, givenEndpoint, givenPayment } from '../support/builders';
import { apiSuite } from '../support/harness';
import { eventually, type Receiver, startReceiver } from '../support/webhook-receiver';

process.env.WEBHOOK_RETRY_WAITS = '10ms';
process.env.WEBHOOK_TIMEOUT_MS = '1000';
resetSettingsCache();

const { tenant: a, other: b } = apiSuite({ other: true });
let worker: DeliveryWorker;
const receivers: Receiver[] = [];
let ok: string; // endpoint answering 200, subscribed to booking.*
let notFound: string; // 404, subscribed to payment.*
let broken: string; // 503, subscribed to booking.created
let refused: string; // nothing listens: no status, subscribed to payment.created
let bookingId: string;
let otherBookingId: string;
let firstBatchDone: string; // a time between the two batches
let otherTenantEndpoint: string;

type Row = {
  id: string;
  endpoint_id: string;
  event_type: string;
  status: string;
  created_at: string;
  last_attempt: { response_status: number | null } | null;
};

async function list(path: string): Promise<Row[]> {
  const res = await a.admin('GET', path);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function settled() {
  await eventually(
    async () => {
      const res = await a.admin('GET', '/deliveries?status=pending');
      return res.body.data.length === 0 ? true : undefined;
    },
    15_000,
    'every delivery attempted',
  );
}

beforeAll(async () => {
  worker = await startDeliveryWorker({ pollIntervalMs: 20 });
  const r200 = await startReceiver(() => ({ status: 200, body: 'ok' }));
  const r404 = await startReceiver(() => ({ status: 404, body: 'no' }));
  const r503 = await startReceiver(() => ({ status: 503, body: 'down' }));
  receivers.push(r200, r404, r503);
  ok = (await givenEndpoint(a.admin, r200.url, ['booking.*'])).id;
  notFound = (await givenEndpoint(a.admin, r404.url, ['payment.*'])).id;
  broken = (await givenEndpoint(a.admin, r503.url, ['booking.created'])).id;
  refused = (await givenEndpoint(a.admin, 'http://127.0.0.1:9/closed', ['payment.created'])).id;
  otherTenantEndpoint = (await givenEndpoint(b.admin, r200.url, ['*'])).id;
  await givenBooking(b.admin);

  // First batch: one booking (created, then confirmed) and one payment.
  bookingId = (await givenBooking(a.admin, 'confirmed')).id;
  await givenPayment(a.admin);
  await settled();
  await new Promise((r) => setTimeout(r, 20));
  firstBatchDone = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 20));
  // Second batch: another booking.
  otherBookingId = (await givenBooking(a.admin)).id;
  await settled();
}, 60_000);

afterAll(async () => {
  await worker.stop();
  await Promise.all(receivers.map((r) => r.close()));
  delete process.env.WEBHOOK_RETRY_WAITS;
  delete process.env.WEBHOOK_TIMEOUT_MS;
  resetSettingsCache();
});

describe('GET /deliveries filters', () => {
  it('has the deliveries the setup made', async () => {
    // booking 1: created → ok + broken, confirmed → ok; payment: created → notFound + refused;
    // booking 2: created → ok + broken.
    expect(await list('/deliveries?limit=100')).toHaveLength(7);
  });

  it('status', async () => {
    const failed = await list('/deliveries?status=failed');
    expect(failed.map((d) => d.endpoint_id).sort()).toEqual([broken, broken, notFound, refused].sort());
    expect((await list('/deliveries?status=succeeded')).every((d) => d.endpoint_id === ok)).toBe(true);
  });

  it('event_type: a type or a family', async () => {
    const created = await list('/deliveries?event_type=booking.created');
    expect(created).toHaveLength(4);
    expect(created.every((d) => d.event_type === 'booking.created')).toBe(true);
    const bookings = await list('/deliveries?event_type=booking.*');
    expect(bookings).toHaveLength(5);
    expect(new Set(bookings.map((d) => d.event_type))).toEqual(
      new Set(['booking.created', 'booking.confirmed']),
    );
    expect(await list('/deliveries?event_type=payment.*')).toHaveLength(2);
    expect(await list('/deliveries?event_type=conversation.message.*')).toEqual([]);
  });

  it('object_id: the deliveries of the events about one resource', async () => {
    const about = await list(`/deliveries?object_id=${bookingId}`);
    expect(about.map((d) => d.event_type).sort()).toEqual([
      'booking.confirmed',
      'booking.created',
      'booking.created',
    ]);
    expect(await list(`/deliveries?object_id=${otherBookingId}&endpoint_id=${ok}`)).toHaveLength(1);
    expect(await list('/deliveries?object_id=bkg_nothing')).toEqual([]);
  });

  it('response_status: the class of the last attempt, none for no answer', async () => {
    const classOf = async (c: string) =>
      (await list(`/deliveries?response_status=${c}`)).map((d) => d.endpoint_id);
    expect(new Set(await classOf('2xx'))).toEqual(new Set([ok]));
    expect(await classOf('4xx')).toEqual([notFound]);
    expect(await classOf('5xx')).toEqual([broken, broken]);
    expect(await classOf('3xx')).toEqual([]);
    expect(await classOf('none')).toEqual([refused]);
    for (const d of await list('/deliveries?response_status=5xx'))
      expect(d.last_attempt?.response_status).toBe(503);
  });

  it('created_after and created_before', async () => {
    const later = await list(`/deliveries?created_after=${encodeURIComponent(firstBatchDone)}`);
    expect(later).toHaveLength(2);
    expect(later.every((d) => d.created_at >= firstBatchDone)).toBe(true);
    const earlier = await list(`/deliveries?created_before=${encodeURIComponent(firstBatchDone)}`);
    expect(earlier).toHaveLength(5);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await list(`/deliveries?created_after=${encodeURIComponent(future)}`)).toEqual([]);
  });

  it('endpoint_id, and filters combined', async () => {
    expect((await list(`/deliveries?endpoint_id=${broken}`)).every((d) => d.endpoint_id === broken)).toBe(
      true,
    );
    const combined = await list(
      `/deliveries?endpoint_id=${ok}&event_type=booking.created&status=succeeded&response_status=2xx`,
    );
    expect(combined).toHaveLength(2);
    // Another tenant's endpoint matches nothing (and reveals nothing).
    expect(await list(`/deliveries?endpoint_id=${otherTenantEndpoint}`)).toEqual([]);
  });

  it('pages through a filtered list with the cursor', async () => {
    const first = await a.admin('GET', '/deliveries?event_type=booking.*&limit=3');
    expect(first.body.data).toHaveLength(3);
    const second = await a.admin(
      'GET',
      `/deliveries?event_type=booking.*&limit=3&cursor=${first.body.next_cursor}`,
    );
    expect(second.body.data).toHaveLength(2);
    expect(second.body.next_cursor).toBeNull();
  });

  it.each([
    ['status=gone', 'status'],
    ['event_type=booking', 'event_type'],
    ['event_type=nope.*', 'event_type'],
    ['event_type=*', 'event_type'],
    ['created_after=yesterday', 'created_after'],
    ['created_before=2026-13-01T00:00:00Z', 'created_before'],
    ['created_after=2026-11-02T00:00:00Z&created_before=2026-11-01T00:00:00Z', 'created_before'],
    ['response_status=200', 'response_status'],
    ['response_status=6xx', 'response_status'],
    ['endpoint_id=nope', 'endpoint_id'],
    [`object_id=${'x'.repeat(201)}`, 'object_id'],
  ])('422 naming the parameter: %s', async (query, field) => {
    const res = await a.admin('GET', `/deliveries?${query}`);
    expect(res.status, res.text).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
  });
});

describe('GET /webhooks/{id}/deliveries filters', () => {
  it('applies the same filters within the endpoint', async () => {
    const path = `/webhooks/${ok}/deliveries`;
    expect(await list(path)).toHaveLength(3);
    expect(await list(`${path}?event_type=booking.confirmed`)).toHaveLength(1);
    expect(await list(`${path}?object_id=${bookingId}`)).toHaveLength(2);
    expect(await list(`${path}?response_status=5xx`)).toEqual([]);
    expect(await list(`${path}?created_after=${encodeURIComponent(firstBatchDone)}`)).toHaveLength(1);
    expect(await list(`/webhooks/${broken}/deliveries?response_status=5xx&status=failed`)).toHaveLength(2);
  });

  it('answers 422 for a bad value and 404 for another tenant’s endpoint', async () => {
    const bad = await a.admin('GET', `/webhooks/${ok}/deliveries?response_status=xxx`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('response_status');
    expect((await a.admin('GET', `/webhooks/${otherTenantEndpoint}/deliveries?status=failed`)).status).toBe(
      404,
    );
  });
});

describe('webhooks.deliveries (dashboard)', () => {
  it('takes the same filters', async () => {
    const viewer = await viewerFromSession({
      user: { id: a.adminUserId, email: a.adminEmail, name: 'A' },
      tenantId: a.tenantId,
      sid: await startWebSession(a.adminUserId),
    });
    const caller = createCaller({ viewer });
    const page = await caller.webhooks.listDeliveries({ event_type: 'payment.*', response_status: 'none' });
    expect(page.data.map((d) => d.endpoint_id)).toEqual([refused]);
    const mine = await caller.webhooks.listDeliveries({ endpoint_id: ok, object_id: otherBookingId });
    expect(mine.data).toHaveLength(1);
    // The procedure is derived from GET /deliveries: the same 422 validation_failed as REST.
    await expect(caller.webhooks.listDeliveries({ event_type: 'booking' })).rejects.toMatchObject({
      code: 'UNPROCESSABLE_CONTENT',
    });
  });
});
