// Prometheus metrics of this process (GET /api/metrics, docs/operations.md "Webhook operations"), with prom-client. Labels
// never carry tenant ids or raw paths: HTTP requests are labelled by route template. Counters and
// histograms are per process (Prometheus scrapes every instance); the pending-deliveries gauge is
// read from the database at scrape time, so it is right however many processes deliver.
import client from 'prom-client';
import { db } from '@/server/db/client';
import { pendingDeliveries } from './sql/pending-deliveries';

interface Metrics {
  registry: client.Registry;
  httpRequests: client.Counter<'method' | 'route' | 'status'>;
  httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  attempts: client.Counter<'outcome'>;
  attemptDuration: client.Histogram<'outcome'>;
}

// One set per process, even when the module is loaded twice (Next.js bundles and the launcher).
const KEY = Symbol.for('switchboard.metrics');
const holder = globalThis as typeof globalThis & { [KEY]?: Metrics };

function create(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  const metrics: Metrics = {
    registry,
    httpRequests: new client.Counter({
      name: 'switchboard_http_requests_total',
      help: 'REST API requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new client.Histogram({
      name: 'switchboard_http_request_duration_seconds',
      help: 'REST API request latency by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: seconds,
      registers: [registry],
    }),
    attempts: new client.Counter({
      name: 'switchboard_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (succeeded, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    attemptDuration: new client.Histogram({
      name: 'switchboard_webhook_attempt_duration_seconds',
      help: 'Webhook delivery attempt latency (request sent to answer or failure) by outcome',
      labelNames: ['outcome'],
      buckets: seconds,
      registers: [registry],
    }),
  };
  new client.Gauge({
    name: 'switchboard_webhook_deliveries_pending',
    help: 'Deliveries waiting for an attempt (first or retry), all tenants, read from the database',
    registers: [registry],
    async collect() {
      // Every tenant's (an operator's figure, never labelled by tenant): the worker's claim index.
      const [row] = await pendingDeliveries.rows(db());
      this.set(row.n);
    },
  });
  return metrics;
}

export function metrics(): Metrics {
  holder[KEY] ??= create();
  return holder[KEY];
}

/** One REST request; `route` is the matched template (`/webhooks/{id}`) or `unmatched`. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  metrics().httpRequests.inc(labels);
  metrics().httpDuration.observe(labels, seconds);
}

/** One recorded webhook attempt. */
export function observeAttempt(succeeded: boolean, latencyMs: number): void {
  const outcome = succeeded ? 'succeeded' : 'failed';
  metrics().attempts.inc({ outcome });
  metrics().attemptDuration.observe({ outcome }, latencyMs / 1000);
}
