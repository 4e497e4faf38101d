// The Vercel path, end to end on the production build: serverless mode (VERCEL=1), the
// database behind a real PgBouncer in transaction mode (DIRECT_URL for migrations), and Inngest
// driven over HTTP the way Inngest Cloud drives it. The script plays Inngest: a stand-in for its
// event API receives what the app sends, and it calls /api/inngest with requests signed as the SDK's
// own verification expects (HMAC-SHA256 over the canonical JSON body and the timestamp, keyed with
// the signing key without its `signkey-<env>-` prefix).
//
// Checks: a user signs in, creates a webhook and a booking; `switchboard/delivery.requested` reaches
// the event API; unsigned, wrongly signed and expired calls to /api/inngest get 401; a signed
// introspection and a signed sync are accepted; a signed step-execution request runs the first
// delivery attempt, the receiver gets the delivery with a valid webhook signature, the answer is
// signed by the SDK, and the API shows the delivery succeeded.
import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { cli, startProductionServer } from '@/scripts/lib/production-server';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { startPgBouncer } from '@/test/support/pgbouncer';
import { startReceiver } from '@/test/support/webhook-receiver';

const SIGNING_KEY = `signkey-prod-${randomBytes(32).toString('hex')}`;
const FUNCTION_ID = 'switchboard-deliver-webhook';

interface InngestEvent {
  name: string;
  id?: string;
  ts?: number;
  data: { tenantId: string; deliveryId: string; endpointId: string; eventId: string };
}

/** RFC 8785-style canonical JSON (sorted keys), as the SDK canonicalizes a body before checking it. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function inngestSignature(body: unknown, key = SIGNING_KEY, at = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', key.replace(/^signkey-\w+-/, ''))
    .update(body === '' ? '' : canonical(body))
    .update(String(at))
    .digest('hex');
  return `t=${at}&s=${mac}`;
}

// The stand-in for Inngest's event API and its sync endpoint.
const events: InngestEvent[] = [];
let registrations = 0;
const inngestCloud = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    const answer = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.method === 'POST' && req.url?.startsWith('/e/')) {
      const parsed = JSON.parse(body);
      const batch: InngestEvent[] = Array.isArray(parsed) ? parsed : [parsed];
      events.push(...batch);
      answer(200, { ids: batch.map((e) => e.id ?? 'x'), status: 200 });
    } else if (req.method === 'POST' && req.url?.startsWith('/fn/register')) {
      registrations++;
      answer(200, { ok: true, modified: true });
    } else {
      answer(404, { error: 'not found' });
    }
  });
});
await new Promise<void>((resolve) => inngestCloud.listen(0, '127.0.0.1', resolve));
const cloudUrl = `http://127.0.0.1:${(inngestCloud.address() as AddressInfo).port}`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-serverless-'));
const database = await ensureEmbeddedDatabase(dataDir);
const pgbouncer = await startPgBouncer(database.url);
const pooledUrl = pgbouncer.url(database.url);
const receiver = await startReceiver();
const connection = { DATABASE_URL: pooledUrl, DIRECT_URL: database.url };

let failed = false;
let server: Awaited<ReturnType<typeof startProductionServer>> | undefined;
try {
  // Vercel's build command runs the migrations over the direct URL before the build.
  const migrate = spawnSync('npm', ['run', '-s', 'db:migrate'], {
    env: { ...process.env, ...connection },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`npm run db:migrate failed: ${migrate.stderr}`);

  server = await startProductionServer({
    ...connection,
    VERCEL: '1',
    AUTH_URL: 'https://switchboard.example.test',
    DELIVERY_ENGINE: 'inngest',
    INNGEST_EVENT_KEY: 'ci-event-key',
    INNGEST_SIGNING_KEY: SIGNING_KEY,
    INNGEST_EVENT_API_BASE_URL: cloudUrl,
    INNGEST_BASE_URL: cloudUrl,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  const health = await fetch(`${server.url}/api/health`).then((r) => r.json());
  if (health.status !== 'ok') throw new Error(`health answered ${JSON.stringify(health)}`);

  const password = randomBytes(12).toString('base64url');
  const tenant = cli({ ...server.env }, [
    'tenant',
    'create',
    '--name',
    'Serverless smoke',
    '--admin-email',
    'serverless@example.test',
    '--admin-password',
    password,
  ]);
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Tenant-ID': tenant.tenant_id },
    body: JSON.stringify({ email: 'serverless@example.test', password }),
  });
  if (login.status !== 200) throw new Error(`POST /auth/login answered ${login.status}`);
  const { access_token: accessToken } = await login.json();
  const headers = {
    'X-Tenant-ID': tenant.tenant_id,
    Authorization: `Bearer ${accessToken}`,
    'Content-Type': 'application/json',
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${server?.url}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };

  const endpoint = await api('POST', '/webhooks', { url: receiver.url, events: ['booking.*'] });
  if (endpoint.status !== 201) throw new Error(`POST /webhooks answered ${endpoint.status}`);
  const booking = await api('POST', '/bookings', {
    customer: { name: 'Serverless' },
    start_at: new Date(Date.now() + 86_400_000).toISOString(),
    end_at: new Date(Date.now() + 90_000_000).toISOString(),
  });
  if (booking.status !== 201) throw new Error(`POST /bookings answered ${booking.status}`);

  const deadline = Date.now() + 10_000;
  while (!events.some((e) => e.name === 'switchboard/delivery.requested') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const requested = events.find((e) => e.name === 'switchboard/delivery.requested');
  if (!requested) throw new Error('no switchboard/delivery.requested reached the event API within 10 s');
  if (requested.data.endpointId !== endpoint.body.id)
    throw new Error(`delivery for ${requested.data.endpointId}, expected ${endpoint.body.id}`);
  if (receiver.received.length > 0) throw new Error('the receiver was called before Inngest ran the step');

  // Inngest Cloud's first call of a run: no step has run yet; the SDK runs the first one at once.
  const run = {
    event: requested,
    events: [requested],
    steps: {},
    ctx: {
      run_id: `01${randomBytes(12).toString('hex').toUpperCase()}`,
      attempt: 0,
      disable_immediate_execution: false,
      use_api: false,
      stack: { stack: [], current: 0 },
    },
    version: 2,
  };
  const inngestUrl = `${server.url}/api/inngest?fnId=${FUNCTION_ID}&stepId=step`;
  const call = (method: string, url: string, body: unknown, signature?: string, inBand = true) =>
    fetch(url, {
      method,
      headers: {
        'Content-Type': 'application/json',
        'X-Inngest-Server-Kind': 'cloud',
        ...(signature ? { 'X-Inngest-Signature': signature } : {}),
        ...(method === 'PUT' && inBand ? { 'X-Inngest-Sync-Kind': 'in_band' } : {}),
      },
      body: method === 'GET' ? undefined : JSON.stringify(body),
    });

  const refusals: Array<[string, string | undefined]> = [
    ['unsigned', undefined],
    ['signed with another key', inngestSignature(run, `signkey-prod-${randomBytes(32).toString('hex')}`)],
    ['signed six minutes ago', inngestSignature(run, SIGNING_KEY, Math.floor(Date.now() / 1000) - 360)],
    ['signed over another body', inngestSignature({ ...run, steps: { x: 1 } })],
  ];
  for (const [what, signature] of refusals) {
    for (const method of ['POST', 'PUT']) {
      const r = await call(method, inngestUrl, run, signature);
      if (r.status !== 401) throw new Error(`${what}: ${method} /api/inngest answered ${r.status}, not 401`);
    }
  }
  if (receiver.received.length > 0) throw new Error('a refused call reached the receiver');
  // An out-of-band sync would register whatever URL the request names: refused, signed or not.
  for (const signature of [undefined, inngestSignature('')]) {
    const r = await call('PUT', `${server.url}/api/inngest`, '', signature, false);
    if (r.status !== 401) throw new Error(`an out-of-band sync answered ${r.status}, not 401`);
  }
  if (registrations !== 0) throw new Error('a refused sync registered the app');

  // A signed introspection reports the app as authenticated; a signed in-band sync gets its config.
  const introspection = await call('GET', `${server.url}/api/inngest`, '', inngestSignature(''));
  const inspected = await introspection.json();
  if (introspection.status !== 200 || inspected.authentication_succeeded !== true)
    throw new Error(`signed GET /api/inngest: ${introspection.status} ${JSON.stringify(inspected)}`);
  const syncBody = { url: `${server.url}/api/inngest` };
  const sync = await call('PUT', `${server.url}/api/inngest`, syncBody, inngestSignature(syncBody));
  const synced = await sync.json();
  const functionIds = (synced.functions ?? []).map((f: { id: string }) => f.id);
  if (sync.status !== 200 || !functionIds.includes(FUNCTION_ID))
    throw new Error(`signed in-band sync answered ${sync.status}: ${JSON.stringify(synced)}`);
  const forgedSync = await call('PUT', `${server.url}/api/inngest`, syncBody, refusals[1][1]);
  if (forgedSync.status !== 401) throw new Error(`a wrongly signed sync answered ${forgedSync.status}`);

  const execution = await call('POST', inngestUrl, run, inngestSignature(run));
  const answer = await execution.text();
  if (execution.status !== 206)
    throw new Error(`signed step execution answered ${execution.status}: ${answer}`);
  const [op] = JSON.parse(answer) as Array<{ op: string; data?: { kind?: string } }>;
  if (op?.op !== 'StepRun' || op.data?.kind !== 'succeeded')
    throw new Error(`the step did not report a successful attempt: ${answer}`);
  const responseSignature = new URLSearchParams(execution.headers.get('x-inngest-signature') ?? '');
  const expected = createHmac('sha256', SIGNING_KEY.replace(/^signkey-\w+-/, ''))
    .update(answer)
    .update(responseSignature.get('t') ?? '')
    .digest('hex');
  if (responseSignature.get('s') !== expected) throw new Error('the SDK did not sign its answer');

  if (receiver.received.length !== 1)
    throw new Error(`the receiver got ${receiver.received.length} requests, expected 1`);
  const delivered = receiver.received[0];
  const payload = new Webhook(endpoint.body.webhook_secret).verify(delivered.body, {
    'webhook-id': String(delivered.headers['webhook-id']),
    'webhook-timestamp': String(delivered.headers['webhook-timestamp']),
    'webhook-signature': String(delivered.headers['webhook-signature']),
  }) as { type: string; data: { object: { id: string } } };
  if (payload.type !== 'booking.created' || payload.data.object.id !== booking.body.id)
    throw new Error(`the receiver got ${payload.type} for ${payload.data.object.id}`);
  if (!delivered.headers['x-service-signature']) throw new Error('the delivery lacks X-Service-Signature');

  const delivery = await api('GET', `/deliveries/${requested.data.deliveryId}`);
  if (delivery.body.status !== 'succeeded')
    throw new Error(`the delivery is ${delivery.body.status}, not succeeded`);
  console.log(
    `serverless smoke test passed: VERCEL=1 behind PgBouncer (transaction mode); signed in, ` +
      `${requested.name} sent, 11 bad calls refused with 401, signed in-band sync (${functionIds.length} ` +
      `functions) and step accepted, ` +
      `${payload.type} delivered with a valid signature`,
  );
} catch (error) {
  failed = true;
  console.error(`serverless smoke test failed: ${(error as Error).message}`);
} finally {
  await server?.stop();
  await receiver.close();
  await pgbouncer.stop();
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
  inngestCloud.close();
}
process.exit(failed ? 1 : 0);
