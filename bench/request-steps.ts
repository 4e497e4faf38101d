// Where an authenticated `GET /api/v1/bookings` spends its time, step by step, in-process (no HTTP,
// no Next.js): each step of the pipeline (server/http/dispatch.ts) run on its own 2,000 times in a
// row against an embedded PostgreSQL, median and p95 in microseconds, next to `GET /api/health`'s one
// `select 1` and the whole pipeline (`handleApi`) measured the same way. The table says which steps
// are worth making cheaper; bench/api.ts measures the result over HTTP. Logs go to /dev/null at
// level info, as a production server writes them.
import { randomBytes } from 'node:crypto';
import { withBenchDatabase } from './_database';
import type { BenchResult } from './_results';

const ITERATIONS = Number(process.env.BENCH_STEP_ITERATIONS ?? 2000);

async function time(run: () => unknown | Promise<unknown>): Promise<{ p50_us: number; p95_us: number }> {
  for (let i = 0; i < 200; i++) await run(); // warm-up: caches, prepared plans, JIT
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]);
  return { p50_us: at(0.5), p95_us: at(0.95) };
}

export function run(): Promise<BenchResult> {
  return withBenchDatabase('request_steps', async () => {
    Object.assign(process.env, {
      LOG_LEVEL: 'info',
      LOG_FILE: '/dev/null',
      API_RATE_LIMIT_PER_SECOND: '1000000',
      API_RATE_LIMIT_PER_TENANT_PER_SECOND: '1000000',
    });
    (await import('@/server/config/settings')).resetSettingsCache();
    // The logger is made once per process with the level and destination of that moment: an
    // earlier bench of `npm run bench` made it silent, which would time a log line as nothing.
    (globalThis as { __switchboardLog?: unknown }).__switchboardLog = undefined;
    const { createTenantWithAdmin } = await import('@/server/domain/tenants');
    const { createApiKey } = await import('@/server/domain/api-keys/create-api-key');
    const { operationContext, SYSTEM_ACTOR } = await import('@/server/domain/context');
    const { forTenant } = await import('@/server/db/tenant-scope');
    const { authenticate, requirePermission } = await import('@/server/auth/principal');
    const { assertWithinApiRateLimit } = await import('@/server/http/api-rate-limit');
    const { listBookings } = await import('@/server/domain/bookings/list-bookings');
    const { handleApi } = await import('@/server/api/routes');
    const { checkHealth } = await import('@/server/health');
    const { logger } = await import('@/server/log');

    const { tenantId } = await createTenantWithAdmin({
      name: 'Steps',
      adminEmail: `steps-${randomBytes(3).toString('hex')}@bench.test`,
      adminPassword: 'bench password 1',
    });
    const ctx = operationContext(tenantId, SYSTEM_ACTOR);
    const key = (await createApiKey(ctx, { name: 'steps' })) as { key: string };
    const start = Date.parse('2027-01-04T09:00:00Z');
    await forTenant(tenantId).booking.createMany({
      data: Array.from({ length: 500 }, (_, i) => ({
        id: `bkg_${String(i).padStart(26, '0')}`,
        tenantId,
        status: 'confirmed' as const,
        customerName: `Customer ${i}`,
        customerEmail: `c${i}@example.com`,
        startAt: new Date(start + i * 3_600_000),
        endAt: new Date(start + i * 3_600_000 + 1_800_000),
      })),
    });
    const authorization = `Bearer ${key.key}`;
    const principal = await authenticate(authorization);
    const page = await listBookings(ctx, { limit: 20 });
    const url = 'http://bench.local/api/v1/bookings';
    const headers = { authorization, 'x-tenant-id': tenantId };
    const whole = async () => {
      const response = await handleApi(new Request(url, { headers }));
      if (response.status !== 200) throw new Error(`GET /bookings answered ${response.status}`);
      await response.text();
    };

    const steps: Record<string, { p50_us: number; p95_us: number }> = {};
    steps.health_select_1 = await time(checkHealth);
    steps.credential = await time(() => authenticate(authorization));
    steps.rate_limit = await time(() => assertWithinApiRateLimit(principal));
    steps.permission = await time(() => requirePermission(principal, 'bookings.read'));
    steps.query_and_serialise = await time(() => listBookings(ctx, { limit: 20 }));
    steps.json = await time(() => JSON.stringify(page));
    steps.log_line = await time(() =>
      logger().info(
        { request_id: 'r', method: 'GET', path: '/api/v1/bookings', status: 200, ms: 1 },
        'request',
      ),
    );
    steps.whole_pipeline = await time(whole);
    const sum = Object.entries(steps)
      .filter(([name]) => name !== 'whole_pipeline' && name !== 'health_select_1')
      .reduce((total, [, s]) => total + s.p50_us, 0);
    console.log('step (in-process, sequential)      p50 µs   p95 µs');
    for (const [name, s] of Object.entries(steps))
      console.log(`${name.padEnd(34)} ${String(s.p50_us).padStart(7)} ${String(s.p95_us).padStart(8)}`);
    console.log(
      `sum of the steps ${sum} µs; the rest of the pipeline (routing, request id, input parsing, ` +
        `response, metrics, tracing) ${steps.whole_pipeline.p50_us - sum} µs`,
    );
    // The benches after this one run with logs off again, as they were measured.
    Object.assign(process.env, { LOG_LEVEL: 'silent' });
    delete process.env.LOG_FILE;
    (globalThis as { __switchboardLog?: unknown }).__switchboardLog = undefined;
    return { ratios: {}, raw: { steps, other_pipeline_us: steps.whole_pipeline.p50_us - sum } };
  });
}
