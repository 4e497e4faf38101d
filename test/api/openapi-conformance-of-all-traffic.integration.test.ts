// What an outside validating proxy (Prism) found between the OpenAPI document and the server, each
// through the real server: the answers and requests below are also checked against the document
// by the test server (test/openapi-conformance.ts), so each fails again if its fix goes.
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/server/api/openapi';
import { routes } from '@/server/api/routes';
import { hubSignature } from '@/server/whatsapp/signature';
import { dayFromNow, givenResource, givenService, serviceBooking, utc } from '../support/booking-fixtures';
import { apiSuite, fakeGraphSuite } from '../support/harness';
import { rememberSecret } from '../support/log-scan';

const APP_SECRET = 'conformance-app-secret';
fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });
const suite = apiSuite();
const { api, tenant: a } = suite;

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
const document = buildOpenApiDocument(routes) as any;
const operation = (path: string, method: string) => document.paths[`/api/v1${path}`][method];

describe('the document the server serves is the one the conformance check reads', () => {
  it('GET /openapi.json is the generator’s output', async () => {
    const served = await api('GET', '/openapi.json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(JSON.stringify(document)));
  });
});

describe('the four mismatches an outside validator found', () => {
  it('getResourceCalendar: the 200 is text/calendar; charset=utf-8, in the document as on the wire', async () => {
    expect(Object.keys(operation('/resources/{id}/calendar.ics', 'get').responses['200'].content)).toEqual([
      'text/calendar; charset=utf-8',
    ]);
    const r = await givenResource(a.admin);
    const url = new URL((await a.admin('GET', `/resources/${r.id}/calendar-token`)).body.calendar_url);
    rememberSecret('calendar feed token', url.searchParams.get('token') as string);
    const feed = await api('GET', `${url.pathname.slice('/api/v1'.length)}${url.search}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(feed.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
  });

  it('disconnectStripe: 404 when Stripe is not connected, and the document says so', async () => {
    expect(Object.keys(operation('/payment-providers/stripe', 'delete').responses)).toContain('404');
    const res = await a.admin('DELETE', '/payment-providers/stripe');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('rotateApiKey, succeedPayment, cancelBooking, refundPayment: a POST without a body, and an optional body', async () => {
    expect(operation('/api-keys/{id}/rotate', 'post').requestBody.required).toBe(false);
    expect(operation('/payments/{id}/succeed', 'post').requestBody.required).toBe(false);
    expect(operation('/bookings/{id}/cancel', 'post').requestBody.required).toBe(false);
    expect(operation('/payments/{id}/refund', 'post').requestBody.required).toBe(false);
    // …and where every field is not optional, it is required.
    expect(operation('/bookings', 'post').requestBody.required).toBe(true);
    expect(operation('/bookings/{id}/reschedule', 'post').requestBody.required).toBe(true);

    const key = await a.admin('POST', '/api-keys', { body: { name: 'Rotated without a body' } });
    expect(key.status).toBe(201);
    const rotated = await a.admin('POST', `/api-keys/${key.body.id}/rotate`);
    expect(rotated.status).toBe(201);

    const payment = await a.admin('POST', '/payments', { body: { amount: 1500, currency: 'EUR' } });
    expect((await a.admin('POST', `/payments/${payment.body.id}/succeed`)).status).toBe(200);
    const refunded = await a.admin('POST', `/payments/${payment.body.id}/refund`);
    expect(refunded.status).toBe(200);
    expect(refunded.body.status).toBe('refunded');

    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const booking = await a.admin('POST', '/bookings', {
      body: serviceBooking(s.id, utc(dayFromNow(4), '10:00')),
    });
    const cancelled = await a.admin('POST', `/bookings/${booking.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
  });
});

describe('what the conformance check found besides', () => {
  it('a signed webhook body is JSON like any other: 415 for another Content-Type, before its signature counts', async () => {
    const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const signed = { 'X-Hub-Signature-256': hubSignature(raw, APP_SECRET) };
    const plain = await api('POST', '/channels/whatsapp/webhook', {
      rawBody: raw,
      headers: { ...signed, 'Content-Type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    expect(plain.body.code).toBe('unsupported_media_type');
    const json = await api('POST', '/channels/whatsapp/webhook', {
      rawBody: raw,
      headers: { ...signed, 'Content-Type': 'application/json' },
    });
    expect(json.status).toBe(200);
    // Its body is in the document, as the handler validates it.
    expect(operation('/channels/whatsapp/webhook', 'post').requestBody.required).toBe(true);
  });

  it('every operation declares what the pipeline itself answers: 422 (query), 503 (outage); 429 with a credential', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(
        methods as Record<string, { responses: object; security: [] }>,
      )) {
        const statuses = Object.keys(op.responses);
        expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['422', '500', '503']));
        if (op.security.length > 0) expect(statuses, `${method} ${path}`).toContain('429');
      }
    }
  });
});
