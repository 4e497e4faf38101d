import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '@/server/client-safe/event-catalog';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import {
  type EventObject,
  type EventPrevious,
  exampleEnvelope,
  exampleObject,
} from '@/server/events/payloads';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { recordEvent } from '@/server/webhooks/outbox';
import { givenEndpoint } from '../support/builders';
import { apiSuite, type SuiteTenant } from '../support/harness';
import { eventually, type ReceivedWebhook, type Receiver, startReceiver } from '../support/webhook-receiver';

// Short retry waits and deadline so the whole schedule runs in a test; the default schedule is
// checked in default-retry-schedule.integration.test.ts.
process.env.WEBHOOK_RETRY_WAITS = '50ms,50ms';
process.env.WEBHOOK_TIMEOUT_MS = '1000';
resetSettingsCache();

const { tenant: a, other: b } = apiSuite({ other: true });
let worker: DeliveryWorker;
const receivers: Receiver[] = [];

beforeAll(async () => {
  worker = await startDeliveryWorker({ pollIntervalMs: 20 });
});
afterAll(async () => {
  await worker.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

/**
 * A state change and its event in one transaction, as the resource modules do it: the type's example
 * object with `fields` changed (an event whose object does not match its type cannot be recorded).
 */
async function emit(tenant: SuiteTenant, type: EventType, fields: Record<string, unknown> = {}) {
  const example = exampleEnvelope(type).data;
  const object = { ...example.object, ...fields } as EventObject<typeof type>;
  const previous = example.previous as EventPrevious<typeof type> | undefined;
  return transaction({ tenantId: tenant.tenantId }, (tx) =>
    recordEvent(tx, { tenantId: tenant.tenantId, type, object, ...(previous ? { previous } : {}) }),
  );
}

/** Verifies like a customer: the public library, the raw body, the standard headers. */
function verify(secret: string, hook: ReceivedWebhook) {
  return new Webhook(secret).verify(hook.body, {
    'webhook-id': String(hook.headers['webhook-id']),
    'webhook-timestamp': String(hook.headers['webhook-timestamp']),
    'webhook-signature': String(hook.headers['webhook-signature']),
  });
}

async function deliveriesOf(endpointId: string, status?: string) {
  const res = await a.admin('GET', `/webhooks/${endpointId}/deliveries${status ? `?status=${status}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.data as Array<{ id: string; status: string; attempt_count: number; event_id: string }>;
}

async function finalDelivery(endpointId: string) {
  return eventually(
    async () => {
      const [d] = await deliveriesOf(endpointId);
      if (!d || d.status === 'pending') return undefined;
      return (await a.admin('GET', `/deliveries/${d.id}`)).body;
    },
    15_000,
    'a final delivery',
  );
}

describe('endpoints API', () => {
  it('creates with a whsec_ secret shown once, then reads, lists, updates and deletes', async () => {
    const created = await a.admin('POST', '/webhooks', {
      body: { url: 'http://127.0.0.1:9/x', events: ['booking.*', 'payment.succeeded'], description: 'CRM' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: 'http://127.0.0.1:9/x',
      events: ['booking.*', 'payment.succeeded'],
      description: 'CRM',
      is_active: true,
    });
    expect(Buffer.from(created.body.webhook_secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
    expect(created.body.id).toMatch(/^whe_/);

    const read = await a.admin('GET', `/webhooks/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.webhook_secret).toBeUndefined();
    expect(read.body).toMatchObject({ recent_attempts: 0, recent_success_rate: null });
    const listed = await a.admin('GET', '/webhooks');
    expect(listed.body.data.map((e: { id: string }) => e.id)).toContain(created.body.id);
    expect(listed.body.data.every((e: object) => !('webhook_secret' in e))).toBe(true);

    const patched = await a.admin('PATCH', `/webhooks/${created.body.id}`, {
      body: { is_active: false, events: ['*'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ is_active: false, events: ['*'], description: 'CRM' });

    expect((await a.admin('DELETE', `/webhooks/${created.body.id}`)).status).toBe(204);
    expect((await a.admin('GET', `/webhooks/${created.body.id}`)).status).toBe(404);
  });

  it('answers 422 with a path per bad field', async () => {
    const res = await a.admin('POST', '/webhooks', {
      body: { url: 'http://127.0.0.1/x', events: ['booking.*', 'nope', 'webhook.test'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['events[1]', 'events[2]']);
    const empty = await a.admin('POST', '/webhooks', { body: { url: 'http://127.0.0.1/x', events: [] } });
    expect(empty.body.errors.map((e: { path: string }) => e.path)).toEqual(['events']);
    const missing = await a.admin('POST', '/webhooks', { body: {} });
    expect(missing.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['events', 'url']);
    const badUrl = await a.admin('POST', '/webhooks', {
      body: { url: 'ftp://example.com/x', events: ['*'] },
    });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body).toMatchObject({ code: 'url_not_allowed', errors: [{ path: 'url' }] });
  });

  it('is admin-only', async () => {
    const asAgent = await a.as('agent');
    expect((await asAgent('GET', '/webhooks')).status).toBe(403);
    expect(
      (await asAgent('POST', '/webhooks', { body: { url: 'http://127.0.0.1/x', events: ['*'] } })).status,
    ).toBe(403);
    expect((await asAgent('GET', '/event-types')).status).toBe(200);
  });

  it("answers 404 on every route for another tenant's ids and never shows them", async () => {
    const hook = await receiver();
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.created']);
    const test = await a.admin('POST', `/webhooks/${endpoint.id}/test`);
    expect(test.status).toBe(202);
    const deliveryId = test.body.delivery.id;
    const eventId = test.body.event.id;
    const calls: Array<[string, string, object?]> = [
      ['GET', `/webhooks/${endpoint.id}`],
      ['PATCH', `/webhooks/${endpoint.id}`, { description: 'mine now' }],
      ['DELETE', `/webhooks/${endpoint.id}`],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`],
      ['POST', `/webhooks/${endpoint.id}/test`],
      ['GET', `/webhooks/${endpoint.id}/deliveries`],
      ['GET', `/deliveries/${deliveryId}`],
      ['POST', `/deliveries/${deliveryId}/resend`],
      ['GET', `/events/${eventId}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await b.admin(method, path, body ? { body } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await b.admin('GET', '/webhooks')).body.data).toEqual([]);
    expect((await b.admin('GET', '/deliveries')).body.data).toEqual([]);
    expect((await b.admin('GET', '/events')).body.data).toEqual([]);
    // Still intact for its owner.
    expect((await a.admin('GET', `/webhooks/${endpoint.id}`)).body.description).toBeNull();
  });
});

describe('events API', () => {
  it('serves the catalog', async () => {
    const res = await a.admin('GET', '/event-types');
    expect(res.status).toBe(200);
    const types = res.body.data.map((e: { type: string }) => e.type);
    expect(types).toContain('booking.confirmed');
    expect(types).toContain('webhook.test');
    expect(types).toContain('webhook.endpoint.disabled');
    expect(types).toContain('webhook.delivery.exhausted');
    expect(types).toContain('booking.expired');
    expect(types).toContain('booking.no_show');
    expect(types).toContain('booking.reminder.sent');
    expect(types).toHaveLength(27);
  });

  it('lists and reads recorded events as envelopes', async () => {
    const event = await emit(a, 'payment.refunded', { id: 'pay_1', amount: 100 });
    const listed = await a.admin('GET', '/events?type=payment.refunded');
    expect(listed.body.data[0]).toEqual(event);
    const read = await a.admin('GET', `/events/${event.id}`);
    expect(read.body).toEqual(event);
    expect(Object.keys(read.body)).toEqual(['id', 'type', 'created_at', 'tenant_id', 'api_version', 'data']);
  });
});

describe('delivery', () => {
  it('delivers a committed event with the contract headers, verifiable with standardwebhooks', async () => {
    const hook = await receiver();
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.*']);
    const event = await emit(a, 'booking.confirmed', { id: 'bkg_1', status: 'confirmed' });
    const [got] = await hook.waitFor(1);
    expect(verify(endpoint.webhook_secret, got)).toEqual(event);
    expect(JSON.parse(got.body)).toEqual(event);
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Switchboard-Webhooks/1',
      'webhook-id': event.id,
      'x-service-event-type': 'booking.confirmed',
      'x-service-delivery-attempt': '1',
    });
    expect(got.headers['x-service-signature']).toBe(got.headers['webhook-signature']);
    expect(String(got.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);

    const delivery = await finalDelivery(endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 1, event_id: event.id, event });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({
        attempt_number: 1,
        succeeded: true,
        response_status: 200,
        response_excerpt: 'ok',
        error: null,
      }),
    ]);
    const stats = (await a.admin('GET', `/webhooks/${endpoint.id}`)).body;
    expect(stats).toMatchObject({ recent_attempts: 1, recent_success_rate: 1 });
  });

  it('does not deliver a rolled-back change', async () => {
    const hook = await receiver();
    await givenEndpoint(a.admin, hook.url, ['payment.failed']);
    const db = forTenant(a.tenantId);
    await expect(
      transaction({ tenantId: a.tenantId }, async (tx) => {
        await recordEvent(tx, {
          tenantId: a.tenantId,
          type: 'payment.failed',
          object: { ...exampleObject('payment.failed'), id: 'pay_rolled_back' },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await emit(a, 'payment.failed', { id: 'pay_committed' });
    const [only] = await hook.waitFor(1);
    expect(JSON.parse(only.body).data.object.id).toBe('pay_committed');
    expect(await db.event.count({ where: { type: 'payment.failed' } })).toBe(1);
  });

  it('matches subscriptions: *, families and exact types, and only active endpoints', async () => {
    const all = await receiver();
    const bookings = await receiver();
    const exact = await receiver();
    const other = await receiver();
    const off = await receiver();
    const ids = [
      (await givenEndpoint(a.admin, all.url, ['*'])).id,
      (await givenEndpoint(a.admin, bookings.url, ['booking.*'])).id,
      (await givenEndpoint(a.admin, exact.url, ['conversation.assigned', 'booking.cancelled'])).id,
      (await givenEndpoint(a.admin, other.url, ['payment.*'])).id,
    ];
    const disabled = await givenEndpoint(a.admin, off.url, ['*']);
    await a.admin('PATCH', `/webhooks/${disabled.id}`, { body: { is_active: false } });
    ids.push(disabled.id);

    const cancelled = await emit(a, 'booking.cancelled');
    const assigned = await emit(a, 'conversation.assigned', { id: 'cnv_1' });
    const created = await emit(a, 'booking.created');
    const typesOf = async (r: Receiver, n: number) =>
      (await r.waitFor(n)).map((h) => String(h.headers['webhook-id'])).sort();
    expect(await typesOf(all, 3)).toEqual([cancelled.id, assigned.id, created.id].sort());
    expect(await typesOf(bookings, 2)).toEqual([cancelled.id, created.id].sort());
    expect(await typesOf(exact, 2)).toEqual([cancelled.id, assigned.id].sort());
    // Deliveries to the others would have been created in the same transactions as these events.
    const db = forTenant(a.tenantId);
    const eventIds = [cancelled.id, assigned.id, created.id];
    expect(await db.delivery.count({ where: { eventId: { in: eventIds }, endpointId: { in: ids } } })).toBe(
      7,
    );
    expect(other.received).toHaveLength(0);
    expect(off.received).toHaveLength(0);
  });

  it('retries on the configured schedule, then marks the delivery failed', async () => {
    const hook = await receiver((i) => ({ status: 500, body: `down ${i} ${'x'.repeat(3000)}` }));
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.completed']);
    const event = await emit(a, 'booking.completed');
    const got = await hook.waitFor(3);
    const delivery = await finalDelivery(endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 3, next_attempt_at: null });
    expect(got.map((h) => h.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(got.every((h) => h.headers['webhook-id'] === event.id)).toBe(true);
    // Each attempt is signed afresh and still verifies.
    for (const h of got) expect(verify(endpoint.webhook_secret, h)).toEqual(event);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(50);
    expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(50);
    expect(delivery.attempts).toHaveLength(3);
    for (const [i, attempt] of delivery.attempts.entries()) {
      expect(attempt).toMatchObject({ attempt_number: i + 1, succeeded: false, response_status: 500 });
      expect(attempt.response_excerpt).toHaveLength(2048);
      expect(attempt.response_excerpt.startsWith(`down ${i} `)).toBe(true);
      expect(attempt.error).toMatch(/500/);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(hook.received).toHaveLength(3);
    const failedList = (await a.admin('GET', `/webhooks/${endpoint.id}/deliveries?status=failed`)).body.data;
    expect(failedList).toHaveLength(1);
    expect(failedList[0].last_attempt).toEqual(delivery.attempts[2]);
    expect(
      (await a.admin('GET', `/webhooks/${endpoint.id}/deliveries?status=succeeded`)).body.data,
    ).toHaveLength(0);
    expect(
      (await a.admin('GET', '/deliveries?status=failed')).body.data.map((d: { id: string }) => d.id),
    ).toContain(delivery.id);
  });

  it('succeeds on a retry after failures', async () => {
    const hook = await receiver((i) => (i === 0 ? { status: 503 } : { status: 204 }));
    const endpoint = await givenEndpoint(a.admin, hook.url, ['payment.created']);
    await emit(a, 'payment.created');
    await hook.waitFor(2);
    const delivery = await finalDelivery(endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(delivery.attempts.map((x: { response_status: number }) => x.response_status)).toEqual([503, 204]);
  });

  it('fails an attempt that exceeds the deadline', async () => {
    const hook = await receiver((i) => (i === 0 ? { status: 200, delayMs: 3000 } : { status: 200 }));
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.rescheduled']);
    await emit(a, 'booking.rescheduled');
    await hook.waitFor(2);
    const delivery = await finalDelivery(endpoint.id);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts[0]).toMatchObject({ succeeded: false, response_status: null });
    expect(delivery.attempts[0].error).toMatch(/^timeout/);
  });

  it('refuses redirects: a 3xx fails the attempt and the location is not requested', async () => {
    const target = await receiver();
    const hook = await receiver(() => ({ status: 302, headers: { Location: target.url } }));
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.created']);
    await emit(a, 'booking.created');
    const delivery = await finalDelivery(endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 3 });
    expect(delivery.attempts[0]).toMatchObject({ succeeded: false, response_status: 302 });
    expect(delivery.attempts[0].error).toMatch(/redirect/);
    expect(target.received).toHaveLength(0);
  });

  it('fails on a refused connection', async () => {
    const closed = await receiver();
    await closed.close();
    const endpoint = await givenEndpoint(a.admin, closed.url, ['payment.succeeded']);
    await emit(a, 'payment.succeeded');
    const delivery = await finalDelivery(endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 3 });
    expect(delivery.attempts[0].error).toMatch(/ECONNREFUSED/);
  });

  it('sends nothing to an endpoint disabled before its retry, and marks the delivery failed', async () => {
    process.env.WEBHOOK_RETRY_WAITS = '1s,1s';
    resetSettingsCache();
    try {
      const hook = await receiver(() => ({ status: 500 }));
      const endpoint = await givenEndpoint(a.admin, hook.url, ['conversation.resolved']);
      await emit(a, 'conversation.resolved', { id: 'cnv_9' });
      await hook.waitFor(1);
      await a.admin('PATCH', `/webhooks/${endpoint.id}`, { body: { is_active: false } });
      const delivery = await finalDelivery(endpoint.id);
      expect(delivery).toMatchObject({ status: 'failed', attempt_count: 1 });
      expect(hook.received).toHaveLength(1);
    } finally {
      process.env.WEBHOOK_RETRY_WAITS = '50ms,50ms';
      resetSettingsCache();
    }
  });

  it('signs with both secrets for 24 h after a rotation', async () => {
    const hook = await receiver();
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.created']);
    const rotated = await a.admin('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook_secret).toMatch(/^whsec_/);
    expect(rotated.body.webhook_secret).not.toBe(endpoint.webhook_secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(
      23.9 * 3600 * 1000,
    );
    await a.admin('POST', `/webhooks/${endpoint.id}/test`);
    const [got] = await hook.waitFor(1);
    const signatures = String(got.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(got.headers['x-service-signature']).toBe(got.headers['webhook-signature']);
    // A receiver holding either secret accepts it.
    expect(verify(endpoint.webhook_secret, got)).toMatchObject({ type: 'webhook.test' });
    expect(verify(rotated.body.webhook_secret, got)).toMatchObject({ type: 'webhook.test' });
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, got)).toThrow();

    // Once the overlap has passed, only the new secret signs.
    await forTenant(a.tenantId).webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { previousSecretExpiresAt: new Date(Date.now() - 1000) },
    });
    await a.admin('POST', `/webhooks/${endpoint.id}/test`);
    const [, later] = await hook.waitFor(2);
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => verify(endpoint.webhook_secret, later)).toThrow();
    expect(verify(rotated.body.webhook_secret, later)).toMatchObject({ type: 'webhook.test' });
  });

  it('sends the test event to that endpoint only', async () => {
    const target = await receiver();
    const bystander = await receiver();
    const endpoint = await givenEndpoint(a.admin, target.url, ['*']);
    await givenEndpoint(a.admin, bystander.url, ['*']);
    const res = await a.admin('POST', `/webhooks/${endpoint.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body.event).toMatchObject({
      type: 'webhook.test',
      data: { object: { endpoint_id: endpoint.id } },
    });
    expect(res.body.delivery).toMatchObject({
      endpoint_id: endpoint.id,
      status: 'pending',
      event_type: 'webhook.test',
    });
    const [got] = await target.waitFor(1);
    expect(JSON.parse(got.body)).toEqual(res.body.event);
    await new Promise((r) => setTimeout(r, 200));
    expect(bystander.received).toHaveLength(0);
  });

  it('resends a delivery: same event and webhook-id, a new delivery now', async () => {
    const hook = await receiver((i) => (i < 3 ? { status: 500 } : { status: 200 }));
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.confirmed']);
    const event = await emit(a, 'booking.confirmed');
    const failed = await finalDelivery(endpoint.id);
    expect(failed.status).toBe('failed');
    const resent = await a.admin('POST', `/deliveries/${failed.id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ resend_of_id: failed.id, event_id: event.id, status: 'pending' });
    const got = await hook.waitFor(4);
    expect(got[3].headers['webhook-id']).toBe(event.id);
    expect(got[3].headers['x-service-delivery-attempt']).toBe('1');
    expect(verify(endpoint.webhook_secret, got[3])).toEqual(event);
    const after = await eventually(async () => {
      const d = (await a.admin('GET', `/deliveries/${resent.body.id}`)).body;
      return d.status === 'succeeded' ? d : undefined;
    });
    expect(after.attempts).toHaveLength(1);
    expect((await a.admin('GET', `/deliveries/${failed.id}`)).body.status).toBe('failed');
  });

  it('refuses to resend or test to a disabled endpoint', async () => {
    const hook = await receiver();
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.created']);
    const test = await a.admin('POST', `/webhooks/${endpoint.id}/test`);
    await hook.waitFor(1);
    await a.admin('PATCH', `/webhooks/${endpoint.id}`, { body: { is_active: false } });
    expect((await a.admin('POST', `/deliveries/${test.body.delivery.id}/resend`)).body.code).toBe(
      'endpoint_inactive',
    );
    expect((await a.admin('POST', `/webhooks/${endpoint.id}/test`)).status).toBe(409);
  });

  it("never delivers one tenant's events to another tenant's endpoints", async () => {
    const hookA = await receiver();
    const hookB = await receiver();
    await givenEndpoint(a.admin, hookA.url, ['payment.refunded']);
    await givenEndpoint(b.admin, hookB.url, ['payment.refunded']);
    const fromB = await emit(b, 'payment.refunded', { id: 'pay_b' });
    const [got] = await hookB.waitFor(1);
    expect(got.headers['webhook-id']).toBe(fromB.id);
    await new Promise((r) => setTimeout(r, 200));
    expect(hookA.received.map((h) => h.headers['webhook-id'])).not.toContain(fromB.id);
  });
});

describe('SSRF guard on the API (WEBHOOK_ALLOW_PRIVATE_URLS=false)', () => {
  it(
    'refuses loopback, private and metadata targets with 422 url_not_allowed, ' + 'on create and update',
    async () => {
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'false';
      resetSettingsCache();
      try {
        for (const url of [
          'http://127.0.0.1/x',
          'https://127.0.0.1/x',
          'https://localhost/x',
          'https://[::1]/x',
          'https://10.0.0.5/x',
          'https://169.254.169.254/latest',
          'https://[fe80::1]/x',
          'https://[fc00::1]/x',
        ]) {
          const res = await a.admin('POST', '/webhooks', { body: { url, events: ['*'] } });
          expect(res.status, url).toBe(422);
          expect(res.body).toMatchObject({ code: 'url_not_allowed', errors: [{ path: 'url' }] });
        }
        const ok = await a.admin('POST', '/webhooks', {
          body: { url: 'https://93.184.216.34/hook', events: ['*'] },
        });
        expect(ok.status).toBe(201);
        const moved = await a.admin('PATCH', `/webhooks/${ok.body.id}`, {
          body: { url: 'https://192.168.0.10/x' },
        });
        expect(moved.body.code).toBe('url_not_allowed');
        await a.admin('DELETE', `/webhooks/${ok.body.id}`);
      } finally {
        process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
        resetSettingsCache();
      }
    },
  );
});
