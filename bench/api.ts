// REST throughput on the production server (`npm start` build), each figure next to
// `GET /api/health` (one `select 1`) measured in the same process, alternating rounds:
// - read: authenticated `GET /api/v1/bookings` (API key, a page of 20 of 500 bookings), 1 and 10
//   connections;
// - write: `POST /api/v1/bookings` with 3 subscribed webhook endpoints (the event, 3 deliveries and
//   the in-process worker delivering them to loopback receivers), 10 connections;
// - scale: the read again after 1,000,000 deliveries, 100,000 events, 10,000 endpoints and 100,000
//   bookings of 1,000 other tenants were generated in SQL, divided by the same figure before.
// Each measurement's CPU time per request is read too (./_cpu.ts): the server's processes, PostgreSQL's,
// and this process (the load generator and the receivers); it says what rate the cores allow at that
// cost, next to the rate measured.

import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadOtherTenants } from '@/scripts/lib/other-tenants';
import { cli, startProductionServer } from '@/scripts/lib/production-server';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { type CpuSpent, cpuCeiling, measureCpu } from './_cpu';
import { type BenchResult, median, round } from './_results';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WRITER = 'Bench writer';

interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

function measure(target: Target, connections: number) {
  return autocannon({ ...target, connections, duration: DURATION_S });
}

/** Where the CPU of a measurement is read: PostgreSQL, and the server's own processes. */
let cpuSource: { databaseUrl: string; serverPids: () => number[] } | undefined;

interface Measured {
  result: autocannon.Result;
  /** CPU of the server's processes and PostgreSQL's (`spent`), and of this process (`benchMs`). */
  spent: CpuSpent;
  benchMs: number;
}

async function measureWithCpu(target: Target, connections: number): Promise<Measured> {
  if (!cpuSource) throw new Error('cpuSource is not set');
  const cpu = await measureCpu(cpuSource.databaseUrl, cpuSource.serverPids);
  const own = process.cpuUsage();
  const result = await measure(target, connections);
  const used = process.cpuUsage(own);
  return { result, spent: await cpu.stop(), benchMs: (used.user + used.system) / 1000 };
}

/** CPU ms per request of the medians of `runs`, and the requests/s the cores allow at that cost. */
function cpuPerRequest(runs: Measured[]) {
  const count = (m: Measured) => m.result.requests.total;
  const per = (f: (m: Measured) => number) => round(median(runs.map((m) => f(m) / count(m))), 3);
  return {
    server_ms: per((m) => m.spent.processMs),
    database_ms: per((m) => m.spent.databaseMs),
    load_generator_ms: per((m) => m.benchMs),
    allows_req_s: round(
      median(runs.map((m) => cpuCeiling(m.spent, count(m), os.cpus().length, m.benchMs))),
      0,
    ),
  };
}

const row = (name: string, r: autocannon.Result) =>
  `${name.padEnd(38)} p50 ${String(r.latency.p50).padStart(4)} ms  ` +
  `p99 ${String(r.latency.p99).padStart(4)} ms  ` +
  `${String(Math.round(r.requests.average)).padStart(5)} req/s  errors ${r.errors + r.non2xx}`;

/** `rounds` alternating pairs (baseline first); the median of the per-round throughput ratios. */
async function compare(label: string, baseline: Target, subject: Target, connections: number) {
  const ratios: number[] = [];
  const subjects: autocannon.Result[] = [];
  const baselines: autocannon.Result[] = [];
  const subjectRuns: Measured[] = [];
  const baselineRuns: Measured[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const baseRun = await measureWithCpu(baseline, connections);
    const subRun = await measureWithCpu(subject, connections);
    const base = baseRun.result;
    const sub = subRun.result;
    if (sub.errors + sub.non2xx > 0) throw new Error(`${label}: ${sub.errors + sub.non2xx} failed requests`);
    baselines.push(base);
    subjects.push(sub);
    baselineRuns.push(baseRun);
    subjectRuns.push(subRun);
    ratios.push(sub.requests.average / base.requests.average);
    console.log(`  round ${i + 1}: ${row('GET /api/health', base)}`);
    console.log(`           ${row(label, sub)}  ratio ${ratios[i].toFixed(2)}`);
  }
  const ratio = median(ratios);
  const p99 = median(subjects.map((s) => s.latency.p99));
  const cpu = cpuPerRequest(subjectRuns);
  const healthReqS = round(median(baselines.map((s) => s.requests.average)), 0);
  const summary = {
    ratio: round(ratio),
    round_ratios: ratios.map((r) => round(r)),
    req_s: round(median(subjects.map((s) => s.requests.average)), 0),
    p50_ms: median(subjects.map((s) => s.latency.p50)),
    p99_ms: p99,
    health_req_s: healthReqS,
    health_p99_ms: median(baselines.map((s) => s.latency.p99)),
    cpu_per_request: cpu,
    health_cpu_per_request: cpuPerRequest(baselineRuns),
    cpu_allows_vs_health: round(cpu.allows_req_s / healthReqS),
  };
  console.log(
    `${label}, ${connections} connection(s): ${summary.req_s} req/s, p99 ${p99} ms; ` +
      `/health ${summary.health_req_s} req/s; median ratio ${ratio.toFixed(2)}\n` +
      `  CPU per request: server ${cpu.server_ms} ms, PostgreSQL ${cpu.database_ms} ms, load generator and ` +
      `receivers ${cpu.load_generator_ms} ms (health: server ${summary.health_cpu_per_request.server_ms} ms); ` +
      `the cores allow ${cpu.allows_req_s} req/s at that cost, ${summary.cpu_allows_vs_health} of /health's rate`,
  );
  return summary;
}

async function startReceivers(count: number): Promise<{ urls: string[]; received(): number; close(): void }> {
  let received = 0;
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  return {
    urls: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`),
    received: () => received,
    close: () => {
      for (const s of servers) {
        s.closeAllConnections();
        s.close();
      }
    },
  };
}

/** Resident memory (kB) of every process below `root`, by command line. */
function processTreeRss(root: number): { pid: number; command: string; rssKb: number }[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents)
      if (below.has(ppid) && !below.has(pid)) {
        below.add(pid);
        grew = true;
      }
  }
  return [...below].flatMap((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      return [{ pid, command, rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) }];
    } catch {
      return [];
    }
  });
}

export async function run(): Promise<BenchResult> {
  const server = await startProductionServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  const receivers = await startReceivers(3);
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
    cpuSource = {
      databaseUrl: dbUrl,
      serverPids: () =>
        processTreeRss(server.pid)
          .filter((p) => !p.command.includes('postgres'))
          .map((p) => p.pid),
    };
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    await client.query(
      `insert into bookings (id, tenant_id, status, customer_name, customer_email, start_at, end_at, updated_at)
       select 'bkg_01' || lpad(i::text, 24, '0'), $1::uuid, 'pending', 'Customer ' || i, 'c' || i || '@example.test',
         now() + i * interval '1 hour', now() + i * interval '1 hour' + interval '30 minutes', now()
       from generate_series(1, 500) i`,
      [tenant.tenant_id],
    );

    const headers = { 'X-Tenant-ID': tenant.tenant_id, Authorization: `Bearer ${tenant.api_key}` };
    for (const url of receivers.urls) {
      const created = await fetch(`${server.url}/api/v1/webhooks`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url, events: ['booking.*'] }),
      });
      if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status}`);
    }
    const health: Target = { url: `${server.url}/api/health` };
    const read: Target = { url: `${server.url}/api/v1/bookings`, headers };
    const write: Target = {
      url: `${server.url}/api/v1/bookings`,
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        customer: { name: WRITER, email: 'writer@example.test' },
        service: 'Check-up',
        start_at: '2027-01-01T09:00:00.000Z',
        end_at: '2027-01-01T09:30:00.000Z',
      }),
    };
    const check = await fetch(read.url, { headers });
    if (check.status !== 200) throw new Error(`GET /bookings answered ${check.status}`);
    const page = (await check.json()) as { data: unknown[] };
    if (page.data.length !== 20) throw new Error(`GET /bookings gave ${page.data.length} rows, not 20`);

    /** Waits (bounded) until the worker has delivered every delivery of the bench tenant. */
    const drained = async () => {
      for (let i = 0; i < 600; i++) {
        const { rows } = await client.query<{ n: number }>(
          `select count(*)::int as n from deliveries where tenant_id = $1::uuid and status = 'pending'`,
          [tenant.tenant_id],
        );
        if (rows[0].n === 0) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the worker did not deliver the writes within 60 s');
    };

    console.log(
      `production server (next start), embedded PostgreSQL, ${DURATION_S} s per measurement, ` +
        `${ROUNDS} alternating rounds, medians`,
    );
    await measure(health, 10); // warm-up of every path
    await measure(read, 10);
    await measure(write, 10);
    await drained();
    await client.query(`delete from bookings where tenant_id = $1::uuid and customer_name = $2`, [
      tenant.tenant_id,
      WRITER,
    ]);

    console.log('\nread, empty database:');
    const read1 = await compare('GET /api/v1/bookings (API key)', health, read, 1);
    const read10 = await compare('GET /api/v1/bookings (API key)', health, read, 10);
    console.log('\nwrite, 3 subscribed endpoints:');
    const before = receivers.received();
    const write10 = await compare('POST /api/v1/bookings', health, write, 10);
    await drained();
    const deliveredWrites = receivers.received() - before;
    await client.query(`delete from bookings where tenant_id = $1::uuid and customer_name = $2`, [
      tenant.tenant_id,
      WRITER,
    ]);

    console.log('\nloading 1,000 other tenants (1,000,000 deliveries, 10,000 endpoints) in SQL…');
    const loadStarted = performance.now();
    const loaded = await loadOtherTenants(client, {
      tenants: 1000,
      endpointsPerTenant: 10,
      eventsPerTenant: 100,
      bookingsPerTenant: 100,
    });
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    console.log(`loaded ${loaded.deliveries} deliveries in ${loadSeconds.toFixed(1)} s`);
    await measure(read, 10); // warm-up after the load
    console.log('\nread, 1,000,000 deliveries of other tenants:');
    const read10Big = await compare('GET /api/v1/bookings (API key)', health, read, 10);
    await client.end();

    const processes = processTreeRss(server.pid);
    const app = processes.find((p) => p.command.includes('next-server'));
    const rssMb = round((app?.rssKb ?? 0) / 1024, 0);
    console.log(
      `\nserver RSS after the load: ${rssMb} MB (next-server process; whole tree without PostgreSQL: ` +
        `${round(processes.filter((p) => !p.command.includes('postgres')).reduce((s, p) => s + p.rssKb, 0) / 1024, 0)} MB)`,
    );
    const scaleRead = read10Big.ratio / read10.ratio;
    console.log(
      `\nread/health 1: ${read1.ratio.toFixed(2)}  read/health 10: ${read10.ratio.toFixed(2)}  ` +
        `write/health 10: ${write10.ratio.toFixed(2)} (p99 ${write10.p99_ms} ms)  scale_read: ${scaleRead.toFixed(2)}`,
    );
    return {
      ratios: {
        read_vs_health_1: read1.ratio,
        read_vs_health_10: read10.ratio,
        write_vs_health_10: write10.ratio,
        scale_read: round(scaleRead),
      },
      raw: {
        read_1: read1,
        read_10: read10,
        write_10: { ...write10, webhooks_delivered: deliveredWrites },
        read_10_big_database: read10Big,
        big_database_load_s: round(loadSeconds, 1),
        server_rss_mb: rssMb,
        measurement_s: DURATION_S,
        rounds: ROUNDS,
      },
    };
  } finally {
    receivers.close();
    await server.stop();
  }
}
