// Several ordinary servers: two `npm start` processes of the production build on one
// PostgreSQL, both running the worker engine, both taking booking changes. Midway one of them is
// SIGKILLed with everything below it. Afterwards every event reached the receiver with a valid
// signature and every delivery succeeded (none lost); each attempt (webhook-id + attempt number)
// arrived exactly once, except an attempt the killed server had already sent when it died: its
// record died with it, so the survivor sends that attempt again once the claim lapses (at least
// once, never lost; bounded by what the dead server had claimed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { type BenchServer, cli, startProductionServer } from '@/scripts/lib/production-server';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { startReceiver } from '@/test/support/webhook-receiver';

const BOOKINGS = 240;
const TIMEOUT_MS = 1000; // a dead server's claims lapse after 2 x (1 s + 10 s) = 22 s
const DRAIN_DEADLINE_MS = 90_000;

const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-two-servers-'));
const database = await ensureEmbeddedDatabase(dataDir);
// Every 9th first attempt is refused, so retries (and their waits) are part of what is shared.
const receiver = await startReceiver((index) =>
  index % 9 === 4 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok', delayMs: (index % 5) * 20 },
);
const servers: BenchServer[] = [];
let failed = false;
try {
  const migrate = spawnSync('npm', ['run', '-s', 'db:migrate'], {
    env: { ...process.env, DATABASE_URL: database.url },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`npm run db:migrate failed: ${migrate.stderr}`);
  const shared = {
    DATABASE_URL: database.url,
    DELIVERY_ENGINE: 'worker',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_RETRY_WAITS: '200ms,400ms,800ms,1s,1s',
  };
  servers.push(...(await Promise.all([startProductionServer(shared), startProductionServer(shared)])));
  const [doomed, survivor] = servers;
  const tenant = cli(survivor.env, [
    'tenant',
    'create',
    '--name',
    'Two servers',
    '--admin-email',
    'two@example.test',
    '--admin-password',
    'two-servers-password',
  ]);
  const headers = {
    'X-Tenant-ID': tenant.tenant_id,
    Authorization: `Bearer ${tenant.api_key}`,
    'Content-Type': 'application/json',
  };
  const post = async (server: BenchServer, path: string, body: unknown) => {
    const r = await fetch(`${server.url}/api/v1${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };
  const endpoint = await post(survivor, '/webhooks', { url: receiver.url, events: ['booking.*'] });
  if (endpoint.status !== 201) throw new Error(`POST /webhooks answered ${endpoint.status}`);

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  let killedAt = 0;
  let claimsAtKill = 0;
  let created = 0;
  for (let i = 0; i < BOOKINGS; i += 4) {
    if (!killedAt && i >= BOOKINGS / 3) {
      process.kill(-doomed.pid, 'SIGKILL');
      killedAt = Date.now();
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from delivery_claims where locked_until > now()`,
      );
      claimsAtKill = rows[0].n;
    }
    const batch = await Promise.all(
      [0, 1, 2, 3].map((j) =>
        post(!killedAt && (i + j) % 2 === 0 ? doomed : survivor, '/bookings', {
          customer: { name: `Guest ${i + j}` },
          start_at: new Date(Date.now() + 86_400_000 + (i + j) * 3_600_000).toISOString(),
          end_at: new Date(Date.now() + 90_000_000 + (i + j) * 3_600_000).toISOString(),
        }),
      ),
    );
    for (const r of batch) {
      if (r.status !== 201) throw new Error(`POST /bookings answered ${r.status}`);
      created++;
    }
  }

  const deadline = Date.now() + DRAIN_DEADLINE_MS;
  let statuses: Record<string, number> = {};
  for (;;) {
    const { rows } = await db.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from deliveries group by status',
    );
    statuses = Object.fromEntries(rows.map((r) => [r.status, r.n]));
    if (!statuses.pending || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const { rows: attempts } = await db.query<{ event_id: string; attempt_number: number }>(
    `select d.event_id, a.attempt_number from delivery_attempts a join deliveries d on d.id = a.delivery_id`,
  );
  await db.end();

  if (statuses.pending) throw new Error(`${statuses.pending} deliveries still pending after the drain`);
  if (statuses.succeeded !== created)
    throw new Error(`${created} bookings, but deliveries are ${JSON.stringify(statuses)}`);

  const verifier = new Webhook(endpoint.body.webhook_secret);
  const arrivals = new Map<string, number[]>(); // webhook-id + attempt -> arrival times
  for (const request of receiver.received) {
    verifier.verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    const key = `${request.headers['webhook-id']}#${request.headers['x-service-delivery-attempt']}`;
    arrivals.set(key, [...(arrivals.get(key) ?? []), request.at]);
  }
  for (const a of attempts) {
    if (!arrivals.has(`${a.event_id}#${a.attempt_number}`))
      throw new Error(`attempt ${a.attempt_number} of ${a.event_id} is recorded but never arrived`);
  }
  const events = new Set([...arrivals.keys()].map((k) => k.split('#')[0]));
  if (events.size !== created) throw new Error(`${events.size} events arrived, ${created} expected`);
  const repeated = [...arrivals.entries()].filter(([, times]) => times.length > 1);
  const unexplained = repeated.filter(([, times]) => times.length > 2 || times[0] > killedAt);
  if (unexplained.length > 0)
    throw new Error(`attempts sent twice by live servers: ${unexplained.map(([k]) => k).join(', ')}`);
  console.log(
    `two servers: ${created} bookings, ${receiver.received.length} requests for ${arrivals.size} attempts, ` +
      `all ${created} deliveries succeeded after one server was SIGKILLed holding up to ${claimsAtKill} ` +
      `claim(s); ` +
      `${repeated.length} attempt(s) the killed server had in flight were sent again by the survivor`,
  );
} catch (error) {
  failed = true;
  console.error(
    `two-servers test failed: ${(error as Error).message}`,
    (error as Error).stack,
    (error as { cause?: unknown }).cause,
  );
} finally {
  for (const server of servers) await server.stop().catch(() => {});
  await receiver.close();
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
