import pg from 'pg';
import { withBenchDatabase } from './_database';
import { type BenchResult, round } from './_results';

const DELIVERIES = 250_000;
const ATTEMPTS_PER_DELIVERY = 4;
const ENDPOINTS = 10;
const RUNS = Number(process.env.BENCH_STATS_RUNS ?? 200);

export function run(): Promise<BenchResult> {
  return withBenchDatabase('stats', measure);
}

async function seed(url: string, tenantId: string, endpointIds: string[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = Date.now();
    // Delivery d (1..N) of endpoint d % 10 (0, 1, 2 → the measured one), created at a point of the
    // last 30 days, with 4 attempts a minute apart; 90 % of attempts succeed.
    const endpointOf = `(array[${endpointIds.map((id) => `'${id}'`).join(',')}])[case when d % 10 < 3 then 1 else d % 10 - 1 end]`;
    const createdAt = `now() - (d::float / ${DELIVERIES}) * interval '30 days' - interval '5 minutes'`;
    await client.query(
      `insert into events (id, tenant_id, type, payload, created_at)
       select 'evt_' || lpad(d::text, 26, '0'), $1::uuid, 'booking.created', '{}'::jsonb, ${createdAt}
       from generate_series(1, $2) d`,
      [tenantId, DELIVERIES],
    );
    await client.query(
      `insert into deliveries (id, tenant_id, event_id, event_type, object_id, endpoint_id, status, attempt_count,
         last_attempt_at, last_response_status, relayed_at, created_at, updated_at)
       select 'dlv_' || lpad(d::text, 26, '0'), $1::uuid, 'evt_' || lpad(d::text, 26, '0'), 'booking.created',
         'bkg_' || d, ${endpointOf}, 'succeeded', ${ATTEMPTS_PER_DELIVERY}, ${createdAt}, 200, ${createdAt},
         ${createdAt}, ${createdAt}
       from generate_series(1, $2) d`,
      [tenantId, DELIVERIES],
    );
    await client.query(
      `insert into delivery_attempts (id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded,
         response_status, latency_ms)
       select 'att_' || lpad(d::text, 24, '0') || a, $1::uuid, 'dlv_' || lpad(d::text, 26, '0'), ${endpointOf}, a,
         ${createdAt} + a * interval '1 minute', ok, case when ok then 200 else 503 end,
         (5 + random() * random() * 2000)::int
       from generate_series(1, $2) d, generate_series(1, ${ATTEMPTS_PER_DELIVERY}) a,
         lateral (select random() < 0.9 as ok offset 0) r`,
      [tenantId, DELIVERIES],
    );
    await client.query('vacuum analyze');
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from delivery_attempts');
    console.log(`seeded ${rows[0].n} attempts in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return rows[0].n;
  } finally {
    await client.end();
  }
}

async function timed(label: string, call: () => Promise<unknown>) {
  // The first call computes and stores the window's closed buckets (delivery_stats_rollups); the
  // following ones read them and count only the current bucket from the attempts.
  const coldStarted = performance.now();
  await call();
  const first = round(performance.now() - coldStarted, 1);
  for (let i = 0; i < 10; i++) await call(); // warm-up: connections, plans, caches
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((x, y) => x - y);
  const at = (p: number) => round(times[Math.min(times.length - 1, Math.floor(p * times.length))], 1);
  const figures = {
    first_call_ms: first,
    p50_ms: at(0.5),
    p95_ms: at(0.95),
    max_ms: round(times[times.length - 1], 1),
    runs: RUNS,
  };
  console.log(
    `${label.padEnd(44)} first ${first} ms, then p50 ${figures.p50_ms} ms  p95 ${figures.p95_ms} ms  max ${figures.max_ms} ms`,
  );
  return figures;
}

async function countAttempts(url: string, tenantId: string, endpointId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ day: number; month: number }>(
      `select count(*) filter (where started_at > now() - interval '24 hours')::int as day,
         count(*) filter (where started_at > now() - interval '30 days')::int as month
       from delivery_attempts where tenant_id = $1::uuid and endpoint_id = $2`,
      [tenantId, endpointId],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

async function measure(url: string): Promise<BenchResult> {
  const { createTenantWithAdmin } = await import('@/server/domain/tenants');
  const { createEndpoint } = await import('@/server/webhooks');
  const { operationContext, SYSTEM_ACTOR } = await import('@/server/domain/context');
  const { endpointDeliveryStats, tenantDeliveryStats } = await import(
    '@/server/webhooks/deliveries/delivery-stats'
  );
  const { tenantId } = await createTenantWithAdmin({
    name: 'Stats bench',
    adminEmail: 'stats@bench.test',
    adminPassword: 'bench password 1',
  });
  const ctx = operationContext(tenantId, SYSTEM_ACTOR);
  const endpointIds: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++)
    endpointIds.push((await createEndpoint(ctx, { url: `http://127.0.0.1:9/${i}`, events: ['*'] })).id);
  const attempts = await seed(url, tenantId, endpointIds);
  const [measured] = endpointIds;

  const attemptsIn = await countAttempts(url, tenantId, measured);
  console.log(`measured endpoint: ${attemptsIn.day} attempts in 24 h, ${attemptsIn.month} in 30 days`);
  const hour24 = await timed('stats, one endpoint, 24 h by hour', () =>
    endpointDeliveryStats(ctx, { id: measured }),
  );
  const days30 = await timed('stats, one endpoint, 30 days by day', () =>
    endpointDeliveryStats(ctx, { id: measured, bucket: 'day' }),
  );
  const tenant24 = await timed('overview chart, whole tenant, 24 h by hour', () =>
    tenantDeliveryStats(ctx, {}),
  );
  return {
    ratios: { stats_p95_ms_24h: hour24.p95_ms, stats_p95_ms_30d: days30.p95_ms },
    raw: {
      attempts,
      endpoint_attempts_24h: attemptsIn.day,
      endpoint_attempts_30d: attemptsIn.month,
      endpoint_24h_by_hour: hour24,
      endpoint_30d_by_day: days30,
      tenant_24h_by_hour: tenant24,
    },
  };
}
