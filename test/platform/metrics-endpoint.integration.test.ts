// GET /api/metrics (docs/operations.md "Webhook operations"): 404 without METRICS_TOKEN, 401 problem+json without the right
// bearer token, else Prometheus text with requests by route template (never a raw path or a tenant
// id), delivery attempts by outcome with their latency histogram, and the pending deliveries read
// from the database at scrape time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { handleMetricsRequest, metricsTokenMatches } from '@/server/metrics/endpoint';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { givenBooking, givenEndpoint } from '../support/builders';
import { apiSuite } from '../support/harness';
import { eventually, type Receiver, startReceiver } from '../support/webhook-receiver';

const TOKEN = 'metrics-token-for-tests-0123456789';
const { tenant: a } = apiSuite();
let receiver: Receiver;
let worker: DeliveryWorker | undefined;

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  await worker?.stop();
  await receiver.close();
  delete process.env.METRICS_TOKEN;
  resetSettingsCache();
});

function scrape(authorization?: string) {
  return handleMetricsRequest(
    new Request('http://localhost/api/metrics', {
      headers: authorization === undefined ? {} : { Authorization: authorization },
    }),
  );
}

/** The value of one sample line, e.g. `name{label="x"} 3`. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('GET /api/metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    delete process.env.METRICS_TOKEN;
    resetSettingsCache();
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers 401 problem+json without the right token', async () => {
    process.env.METRICS_TOKEN = TOKEN;
    resetSettingsCache();
    for (const header of [undefined, 'Bearer wrong-token', TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await scrape(header);
      expect(res.status, String(header)).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await res.json()).code).toBe('unauthenticated');
    }
    expect(metricsTokenMatches(TOKEN, `Bearer ${TOKEN}`)).toBe(true);
  });

  it('counts requests by route template, attempts by outcome, and pending deliveries', async () => {
    process.env.METRICS_TOKEN = TOKEN;
    resetSettingsCache();
    const endpoint = await givenEndpoint(a.admin, receiver.url, ['booking.*']);
    const booking = await givenBooking(a.admin);
    expect((await a.admin('GET', `/bookings/${booking.id}`)).status).toBe(200);
    expect((await a.admin('GET', '/bookings/bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q')).status).toBe(404);

    // No worker yet: the booking's delivery is pending, and the gauge reads it from the database.
    let text = await (await scrape(`Bearer ${TOKEN}`)).text();
    expect(sample(text, 'switchboard_webhook_deliveries_pending')).toBe(1);
    expect(
      sample(text, 'switchboard_http_requests_total{method="GET",route="/bookings/{id}",status="200"}'),
    ).toBe(1);
    expect(
      sample(text, 'switchboard_http_requests_total{method="GET",route="/bookings/{id}",status="404"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        'switchboard_http_request_duration_seconds_count{method="GET",route="/bookings/{id}",status="200"}',
      ),
    ).toBe(1);
    // Labels never hold a raw path, an id or a tenant.
    expect(text).not.toContain(booking.id);
    expect(text).not.toContain(a.tenantId);
    expect(text).not.toContain(endpoint.id);

    worker = await startDeliveryWorker({ pollIntervalMs: 20 });
    await receiver.waitFor(1);
    text = await eventually(async () => {
      const t = await (await scrape(`Bearer ${TOKEN}`)).text();
      // The attempt is counted once its record is written: wait for both.
      const counted = sample(t, 'switchboard_webhook_attempts_total{outcome="succeeded"}') !== undefined;
      return counted && sample(t, 'switchboard_webhook_deliveries_pending') === 0 ? t : undefined;
    });
    expect(sample(text, 'switchboard_webhook_attempts_total{outcome="succeeded"}')).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'switchboard_webhook_attempt_duration_seconds_count{outcome="succeeded"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE switchboard_webhook_attempt_duration_seconds histogram');
  });
});
