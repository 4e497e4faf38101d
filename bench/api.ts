// Authenticated REST latency: GET /api/v1/bookings (API key, tenant header, a page of 20 from
// 500 bookings) against GET /api/health (one `select 1`) on the same production server process.
import autocannon from 'autocannon';
import pg from 'pg';
import { cli, startProductionServer } from '@/scripts/lib/production-server';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { newId } from '@/server/lib/ids';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
function measure(url: string, connections: number, headers: Record<string, string> = {}) {
  return autocannon({ url, connections, duration: DURATION_S, headers });
}

export async function run(): Promise<void> {
  const server = await startProductionServer();
  try {
    const tenant = cli(server.env, [
      'tenant',
      'create',
      '--name',
      'Bench',
      '--admin-email',
      'bench@example.test',
      '--admin-password',
      'bench-password',
    ]);
    const { url: dbUrl } = await ensureEmbeddedDatabase(server.dataDir);
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    for (let i = 0; i < 500; i++) {
      const start = new Date(Date.now() + i * 3_600_000);
      await client.query(
        `insert into bookings
           (id, tenant_id, status, customer_name, customer_email, start_at, end_at, updated_at)
         values ($1, $2, 'pending', $3, $4, $5, $6, now())`,
        [
          newId('booking'),
          tenant.tenant_id,
          `Customer ${i}`,
          `c${i}@example.test`,
          start,
          new Date(start.getTime() + 1_800_000),
        ],
      );
    }
    await client.end();

    const headers = { 'X-Tenant-ID': tenant.tenant_id, Authorization: `Bearer ${tenant.api_key}` };
    const check = await fetch(`${server.url}/api/v1/bookings`, { headers });
    if (check.status !== 200) throw new Error(`GET /bookings answered ${check.status}`);

    await measure(`${server.url}/api/health`, 10); // warm-up of both paths
    await measure(`${server.url}/api/v1/bookings`, 10, headers);
    const row = (name: string, r: autocannon.Result) =>
      `${name.padEnd(34)} p50 ${String(r.latency.p50).padStart(4)} ms  ` +
      `p99 ${String(r.latency.p99).padStart(4)} ms  ` +
      `${Math.round(r.requests.average)} req/s  errors ${r.errors + r.non2xx}`;
    console.log(`production server (next start), embedded PostgreSQL, ${DURATION_S} s per row`);
    for (const connections of [1, 10]) {
      const health = await measure(`${server.url}/api/health`, connections);
      const bookings = await measure(`${server.url}/api/v1/bookings`, connections, headers);
      console.log(`\n${connections} connection${connections > 1 ? 's' : ''}:`);
      console.log(row('baseline GET /api/health', health));
      console.log(row('GET /api/v1/bookings (API key)', bookings));
      const p50Ratio = bookings.latency.p50 / Math.max(health.latency.p50, 0.01);
      const throughputRatio = bookings.requests.average / health.requests.average;
      console.log(
        `ratio bookings/health: p50 ${p50Ratio.toFixed(2)}x, throughput ${throughputRatio.toFixed(2)}x`,
      );
    }
  } finally {
    await server.stop();
  }
}
