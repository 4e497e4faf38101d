// OpenTelemetry (docs/operations.md "Metrics and tracing"): with OTEL_EXPORTER_OTLP_ENDPOINT set, @vercel/otel is
// registered (as instrumentation.ts does) and a POST that creates a booking yields a request span
// and, later, the attempt span of its delivery in the same trace (the trace context travels on the
// delivery row). The collector is a loopback OTLP/HTTP receiver reading the JSON protocol.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { bookingBody, givenEndpoint } from '../support/builders';
import { apiSuite } from '../support/harness';
import { eventually, type Receiver, startReceiver } from '../support/webhook-receiver';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}
const spans: OtlpSpan[] = [];
let collector: Server;
let receiver: Receiver;
let worker: DeliveryWorker;

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resource of body.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    WEBHOOK_RETRY_WAITS: '50ms',
  });
  resetSettingsCache();
  const { registerOTel } = await import('@vercel/otel');
  registerOTel({ serviceName: 'switchboard-test' });
  receiver = await startReceiver(() => ({ status: 200 }));
  worker = await startDeliveryWorker({ pollIntervalMs: 20 });
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await new Promise((resolve) => collector.close(resolve));
  delete process.env.WEBHOOK_RETRY_WAITS;
  resetSettingsCache();
});

const { tenant: a } = apiSuite();

it('a POST creating a booking and the attempt it caused share one trace', async () => {
  await givenEndpoint(a.admin, receiver.url, ['booking.created']);
  const created = await a.admin('POST', '/bookings', { body: bookingBody() });
  expect(created.status, created.text).toBe(201);
  await receiver.waitFor(1);

  const [delivery] = await forTenant(a.tenantId).delivery.findMany({ where: { objectId: created.body.id } });
  expect(delivery.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  const traceId = delivery.traceparent?.split('-')[1];

  const { request, attempt } = await eventually(
    async () => {
      const request = spans.find((s) => s.name === 'POST /api/v1/bookings' && s.traceId === traceId);
      const attempt = spans.find((s) => s.name === 'webhook attempt' && s.traceId === traceId);
      return request && attempt ? { request, attempt } : undefined;
    },
    15_000,
    'the request and attempt spans at the collector',
  );
  // The attempt hangs under the request's span (the context stored on the delivery).
  expect(attempt.parentSpanId).toBe(request.spanId);
  const status = attempt.attributes?.find((x) => x.key === 'http.response.status_code');
  expect(status?.value).toMatchObject({ intValue: 200 });
  // The receiver was not sent the trace header (deliveries are signed payloads, unchanged).
  expect(receiver.received[0].headers.traceparent).toBeUndefined();
});
