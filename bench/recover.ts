// Bulk recovery (docs/operations.md "Webhook operations", POST /webhooks/{id}/recover): the time to requeue 10,000 failed
// deliveries of one endpoint through the REST API (goal: under 30 s), and the latency of an API read
// (GET /webhooks/{id}) made over and over by another client while it runs, next to the same read's
// latency just before. The in-process worker runs, so the requeued deliveries are also being sent to
// a loopback receiver meanwhile, as in production. One embedded PostgreSQL of its own.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { percentile, withBenchDatabase } from './_database';
import { type BenchResult, round } from './_results';

const FAILED = Number(process.env.BENCH_RECOVER_DELIVERIES ?? 10_000);
const BASELINE_MS = 3_000;

export function run(): Promise<BenchResult> {
  return withBenchDatabase('recover', measure);
}

/** Sequential reads until `stop()`; their latencies in ms. */
function readLoop(read: () => Promise<Response>) {
  const latencies: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const response = await read();
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`the concurrent read answered ${response.status}`);
      latencies.push(performance.now() - started);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        reads: sorted.length,
        p50_ms: round(percentile(sorted, 50), 1),
        p99_ms: round(percentile(sorted, 99), 1),
        max_ms: round(sorted[sorted.length - 1], 1),
      };
    },
  };
}

async function measure(databaseUrl: string): Promise<BenchResult> {
  const { startApiServer } = await import('@/test/support/api-server');
  const { startDeliveryWorker } = await import('@/server/runtime/deliveries/worker');
  const { createTenantWithAdmin } = await import('@/server/domain/tenants');

  const receiver: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // The concurrent reader measures latency, not the API limit's refusals.
  process.env.API_RATE_LIMIT_PER_SECOND = '0';
  process.env.API_RATE_LIMIT_PER_TENANT_PER_SECOND = '0';
  const { resetSettingsCache } = await import('@/server/config/settings');
  resetSettingsCache();
  const api = await startApiServer();
  const worker = await startDeliveryWorker();
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const { tenantId, apiKey } = await createTenantWithAdmin({
      name: 'Bench recover',
      adminEmail: `recover-${randomBytes(3).toString('hex')}@bench.test`,
      adminPassword: 'bench password 1',
    });
    const headers = { 'X-Tenant-ID': tenantId, Authorization: `Bearer ${apiKey}` };
    const created = await fetch(`${api.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: hook, events: ['booking.*'] }),
    });
    if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status}`);
    const endpoint = (await created.json()) as { id: string };

    // FAILED events from the last day, each with one delivery that failed its six attempts.
    await sql.query(
      `insert into events (id, tenant_id, type, payload, created_at)
       select 'evt_bench_' || lpad(n::text, 6, '0'), $1::uuid, 'booking.confirmed',
         jsonb_build_object('id', 'evt_bench_' || lpad(n::text, 6, '0'), 'type', 'booking.confirmed',
           'created_at', now(), 'tenant_id', $1::text, 'api_version', 'v1',
           'data', jsonb_build_object('object', jsonb_build_object('id', 'bkg_' || n))),
         now() - interval '20 hours' + n * interval '1 second'
       from generate_series(1, $2::int) n`,
      [tenantId, FAILED],
    );
    await sql.query(
      `insert into deliveries (id, tenant_id, event_id, event_type, object_id, endpoint_id, status, attempt_count,
         last_attempt_at, last_response_status, relayed_at, created_at)
       select 'dlv_bench_' || lpad(n::text, 6, '0'), $1::uuid, 'evt_bench_' || lpad(n::text, 6, '0'),
         'booking.confirmed', 'bkg_' || n, $2, 'failed', 6,
         now() - interval '10 hours', 503, now() - interval '20 hours', now() - interval '20 hours' + n * interval '1 second'
       from generate_series(1, $3::int) n`,
      [tenantId, endpoint.id, FAILED],
    );
    await sql.query('analyze');

    const read = () => fetch(`${api.url}/api/v1/webhooks/${endpoint.id}`, { headers });
    const recover = (body: object) =>
      fetch(`${api.url}/api/v1/webhooks/${endpoint.id}/recover`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    await (await read()).arrayBuffer(); // warm-up

    const baselineLoop = readLoop(read);
    await new Promise((r) => setTimeout(r, BASELINE_MS));
    const baseline = await baselineLoop.stop();

    const since = new Date(Date.now() - 86_400_000).toISOString();
    const dryStarted = performance.now();
    const dry = (await (await recover({ since, dry_run: true })).json()) as { count: number };
    const dryMs = performance.now() - dryStarted;
    if (dry.count !== FAILED) throw new Error(`the dry run counted ${dry.count}, not ${FAILED}`);

    const during = readLoop(read);
    const started = performance.now();
    const answer = await recover({ since });
    const body = (await answer.json()) as { count: number };
    const recoverMs = performance.now() - started;
    const concurrent = await during.stop();
    if (answer.status !== 202 || body.count !== FAILED)
      throw new Error(`recover answered ${answer.status} ${JSON.stringify(body)}`);

    // How far the worker got meanwhile, and the time until every requeued delivery was sent again.
    for (let i = 0; i < 1200; i++) {
      const { rows } = await sql.query<{ n: number }>(
        `select count(*)::int as n from deliveries where endpoint_id = $1 and status = 'pending'`,
        [endpoint.id],
      );
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const drainedMs = performance.now() - started;
    const { rows } = await sql.query<{ n: number }>(
      `select count(*)::int as n from deliveries where endpoint_id = $1 and status = 'succeeded' and attempt_count = 7`,
      [endpoint.id],
    );

    console.log(
      `recover ${FAILED} failed deliveries: ${(recoverMs / 1000).toFixed(2)} s (goal < 30 s); ` +
        `dry run ${dryMs.toFixed(0)} ms`,
    );
    console.log(
      `  concurrent GET /webhooks/{id}: p50 ${concurrent.p50_ms} ms, p99 ${concurrent.p99_ms} ms, ` +
        `max ${concurrent.max_ms} ms over ${concurrent.reads} reads ` +
        `(before: p50 ${baseline.p50_ms} ms, p99 ${baseline.p99_ms} ms)`,
    );
    console.log(
      `  all ${rows[0].n} requeued deliveries delivered again ${(drainedMs / 1000).toFixed(1)} s after the request`,
    );
    return {
      ratios: { recover_10k_s: round(recoverMs / 1000, 2) },
      raw: {
        deliveries: FAILED,
        recover_ms: Math.round(recoverMs),
        dry_run_ms: Math.round(dryMs),
        read_during: concurrent,
        read_before: baseline,
        redelivered: rows[0].n,
        redelivered_after_ms: Math.round(drainedMs),
      },
    };
  } finally {
    await sql.end();
    await worker.stop();
    await api.close();
    receiver.closeAllConnections();
    receiver.close();
  }
}
