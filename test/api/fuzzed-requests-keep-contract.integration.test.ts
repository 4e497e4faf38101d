// Property-based hostile requests against every /api/v1 route (docs/decisions.md "Security"). Each
// request is generated from the route table: its method and path, a path id from a pool (tenant A's
// real resources, tenant B's, odd ids), a query and a body built from the route's zod schemas and
// then mutated (wrong types, missing and extra fields, huge strings and arrays, NUL and lone
// surrogates, deep nesting, __proto__ / constructor / prototype keys), and mutated headers
// (X-Tenant-ID, Authorization, Content-Type, Idempotency-Key). For every request:
// - never a 5xx;
// - every 4xx is application/problem+json with code, status and request_id, and every answer fits
//   the route's declared schema (test/support/contract.ts);
// - a refused request writes nothing: the counts (and last update times) of both tenants'
//   bookings, payments, conversations, messages, channels, endpoints, events, deliveries, attempts,
//   api keys and idempotency records are the same before and after it. One exception, by design
//   (docs/architecture.md "Request pipeline", as Stripe does): a POST with an Idempotency-Key whose operation ran and answered a
//   4xx stores that outcome, so it may add exactly one idempotency record;
// - a success answer never carries one of tenant B's ids unless B's own credential asked.
// Deterministic: a fixed fast-check seed (FUZZ_SEED to change it, FUZZ_RUNS for the count).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@/server/api/routes';
import { signAccessToken } from '@/server/auth/jwt';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import type { AnyRoute } from '@/server/http/route';
import { WebhookPayload } from '@/server/whatsapp/payload';
import { hubSignature } from '@/server/whatsapp/signature';
import {
  givenBooking,
  givenChannel,
  givenConversation,
  givenEndpoint,
  givenPayment,
} from '../support/builders';
import { assertExchangeConforms } from '../support/contract';
import { TEST_ENV } from '../support/env';
import { type FakeGraph, startFakeGraph } from '../support/fake-graph';
import { apiSuite, fakeStripeSuite, type SuiteTenant } from '../support/harness';
import {
  type Hints,
  hostileValueOf,
  jsonSchemaOf,
  nastyString,
  toJsonText,
} from '../support/schema-arbitrary';

const SEED = Number(process.env.FUZZ_SEED ?? 1_010_010);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const APP_SECRET = 'fuzz-whatsapp-app-secret';
const VERIFY_TOKEN = 'fuzz-verify-token';

let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph();
  Object.assign(process.env, {
    // 10,000 requests from one credential: the API limits (100/s per credential, 300/s per tenant)
    // are not under test here.
    API_RATE_LIMIT_PER_SECOND: '0',
    API_RATE_LIMIT_PER_TENANT_PER_SECOND: '0',
    WHATSAPP_GRAPH_URL: graph.url,
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
  });
  resetSettingsCache();
});
afterAll(async () => {
  await graph.close();
  process.env.API_RATE_LIMIT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_SECOND;
  process.env.API_RATE_LIMIT_PER_TENANT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_TENANT_PER_SECOND;
  resetSettingsCache();
});
// Stripe is a stand-in too: a generated key of the right shape is refused by it (401 → 422), never sent
// to the real Stripe.
fakeStripeSuite();
const suite = apiSuite({ other: true, agent: true });
const { tenant: a, other: b } = suite;

/** Resource kinds that appear as `{id}` in paths, by the path's first segment. */
const KIND_OF_SEGMENT: Record<string, string> = {
  bookings: 'bkg',
  payments: 'pay',
  conversations: 'cnv',
  channels: 'chn',
  webhooks: 'whe',
  deliveries: 'dlv',
  events: 'evt',
  'api-keys': 'key',
  members: 'usr',
  invitations: 'inv',
};

type Pools = Record<string, string[]>;

/**
 * The fuzzer runs LANES property runs at once (the machine's time goes to waiting on the database
 * otherwise), each against its own two tenants, so a write is still attributed to the request of
 * the lane whose tenants it touched.
 */
interface Lane {
  index: number;
  a: SuiteTenant;
  b: SuiteTenant;
  poolsA: Pools;
  poolsB: Pools;
  idsOfB: Set<string>;
  numberA: string;
  agentTokenA: string;
}
const LANES = Number(process.env.FUZZ_LANES ?? 4);
const lanes: Lane[] = [];

/** The kinds and ids of what a tenant owns: the seeds every path id is drawn from. */
async function seed(t: SuiteTenant, pools: Pools, number: string) {
  const add = (id: string) => {
    const kind = id.split('_')[0];
    pools[kind] ??= [];
    pools[kind].push(id);
  };
  for (const state of ['pending', 'pending', 'confirmed'] as const)
    add((await givenBooking(t.admin, state)).id);
  for (const state of ['pending', 'succeeded'] as const) add((await givenPayment(t.admin, state)).id);
  add((await givenConversation(t.admin)).id);
  const channel = await givenChannel(t.admin, number);
  add(channel.id);
  const whatsapp = await t.admin('POST', '/conversations', {
    body: { channel: 'whatsapp', channel_id: channel.id, contact: { phone: '+15550001111' } },
  });
  expect(whatsapp.status, whatsapp.text).toBe(201);
  add(whatsapp.body.id);
  const endpoint = await givenEndpoint(t.admin, 'http://127.0.0.1:9/hook');
  add(endpoint.id);
  const test = await t.admin('POST', `/webhooks/${endpoint.id}/test`);
  expect(test.status, test.text).toBe(202);
  add(test.body.delivery.id);
  add(test.body.event.id);
  // A key the fuzzer may revoke or rotate: never the key the suite itself signs in with.
  const key = await t.admin('POST', '/api-keys', { body: { name: 'sacrificial' } });
  expect(key.status, key.text).toBe(201);
  add(key.body.id);
  // A member the fuzzer may demote, remove or reset (never the suite's admin), and an invitation.
  add(t.agentUserId);
  const invitation = await t.admin('POST', '/invitations', {
    body: { email: `fuzz-${t.tenantId}@example.test`, role: 'agent' },
  });
  expect(invitation.status, invitation.text).toBe(201);
  add(invitation.body.id);
}

/** Ids that name nothing or are malformed; written as they go into the path (already escaped or not). */
const ODD_IDS = [
  '%00',
  'bkg_%00',
  'x%00y',
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F%2E%2E',
  '%2F',
  '%5C',
  'x'.repeat(5_000),
  `bkg_${'0'.repeat(4_000)}`,
  '%E0%A4%A',
  '%',
  '%25',
  '%FF',
  '%C0%AF',
  '%ED%A0%80',
  '%EF%BB%BF',
  encodeURIComponent('é🙂'),
  'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  '00000000-0000-0000-0000-000000000000',
  "'%3B%20drop%20table%20bookings%3B--",
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '%7B%7D',
];

function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // Lone surrogates: encodeURIComponent refuses them; send their (invalid) UTF-8 bytes escaped.
    return [...text]
      .map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch)))
      .join('');
  }
}

const ODD_QUERY_TAILS = [
  '',
  '',
  '',
  '&cursor=%00',
  '&limit=%00',
  '&%00=1',
  '&cursor=..',
  '&cursor=..%2F..%2F',
  `&cursor=${'A'.repeat(3_000)}`,
  '&cursor=%ZZ',
  '&cursor=%',
  '&cursor=bm90LWFuLWlk',
  '&cursor=eyJpZCI6IngifQ',
  '&cursor=%ED%A0%80',
  '&limit=1e2',
  '&limit=',
  '&limit=101',
  '&limit=-1',
  '&limit=0x10',
  '&&&',
  '&__proto__=1',
  '&constructor=x&prototype=y',
  '&status=%00',
  '&status=pending&status=failed',
  '&from=2020-13-45T99:00:00Z',
  `&x=${'%41'.repeat(1_000)}`,
];

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json, text/plain',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  ';',
];

/** Header values fetch can send: tab and Latin-1 without control characters (NUL, CR, LF, DEL). */
const headerText = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
    .map((c) => String.fromCharCode(c)),
  maxLength: 300,
});

type Credential = 'adminA' | 'agentA' | 'adminB' | 'none' | 'raw';
type TenantChoice = 'A' | 'B' | 'none' | 'raw';

interface FuzzRequest {
  /** The route's operationId (a name keeps a reported counterexample readable). */
  route: string;
  method: string;
  /** Which pool the path id comes from, and an index into it (pools grow during the run). */
  idSource: { pool: 'A' | 'B' | 'otherKindA' | 'odd' | 'random'; pick: number; text: string };
  query: unknown;
  queryTail: string;
  body: unknown;
  bodyMode: 'json' | 'none' | 'malformed' | 'bytes' | 'huge';
  contentType: string | null;
  tenant: TenantChoice;
  rawTenant: string;
  credential: Credential;
  rawAuthorization: string;
  idempotencyKey: string | null;
  signWhatsApp: boolean;
  requestId: string | null;
}

function requestArbitrary(lane: Lane, route: AnyRoute): fc.Arbitrary<FuzzRequest> {
  const { a, b, poolsA, poolsB, numberA } = lane;
  const hints: Hints = {
    phone_number_id: fc.oneof(
      fc.constant(numberA),
      fc.stringMatching(/^[0-9]{6,15}$/),
      fc.constant(`${numberA}0`),
    ),
    booking_id: fc.oneof(
      fc.constantFrom(...(poolsA.bkg ?? ['x'])),
      fc.constantFrom(...(poolsB.bkg ?? ['x'])),
    ),
    channel_id: fc.oneof(
      fc.constantFrom(...(poolsA.chn ?? ['x'])),
      fc.constantFrom(...(poolsB.chn ?? ['x'])),
    ),
    user_id: fc.constantFrom(a.adminUserId, a.agentUserId, b.adminUserId, 'usr_x'),
    'hub.verify_token': fc.constantFrom(VERIFY_TOKEN, 'wrong'),
    'hub.mode': fc.constantFrom('subscribe', 'unsubscribe'),
  };
  const bodySchema =
    route.body ?? (route.operationId === 'receiveWhatsAppWebhook' ? WebhookPayload : undefined);
  const body = bodySchema
    ? hostileValueOf(jsonSchemaOf(bodySchema), hints)
    : fc.oneof(fc.constant(undefined), hostileValueOf({ type: 'object' }));
  const query = route.query ? hostileValueOf(jsonSchemaOf(route.query), hints) : fc.constant(undefined);
  return fc.record({
    route: fc.constant(route.operationId),
    method: fc.oneof(
      { weight: 19, arbitrary: fc.constant(route.method) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
    ),
    idSource: fc.record({
      pool: fc.oneof(
        { weight: 6, arbitrary: fc.constant('A' as const) },
        { weight: 2, arbitrary: fc.constant('B' as const) },
        { weight: 1, arbitrary: fc.constant('otherKindA' as const) },
        { weight: 3, arbitrary: fc.constant('odd' as const) },
        { weight: 1, arbitrary: fc.constant('random' as const) },
      ),
      pick: fc.nat(),
      text: fc.oneof(
        nastyString.map((s) => s.slice(0, 200)),
        fc.string({ maxLength: 30 }),
      ),
    }),
    query,
    queryTail: fc.constantFrom(...ODD_QUERY_TAILS),
    body,
    bodyMode: fc.oneof(
      { weight: 40, arbitrary: fc.constant('json' as const) },
      { weight: 2, arbitrary: fc.constant('none' as const) },
      { weight: 2, arbitrary: fc.constant('malformed' as const) },
      { weight: 1, arbitrary: fc.constant('bytes' as const) },
      { weight: 1, arbitrary: fc.constant('huge' as const) },
    ),
    contentType: fc.oneof(
      { weight: 20, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      { weight: 1, arbitrary: headerText },
    ),
    tenant: fc.oneof(
      { weight: 30, arbitrary: fc.constant('A' as const) },
      { weight: 1, arbitrary: fc.constant('B' as const) },
      { weight: 1, arbitrary: fc.constant('none' as const) },
      { weight: 2, arbitrary: fc.constant('raw' as const) },
    ),
    rawTenant: fc.oneof(
      headerText,
      fc.uuid(),
      fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-000000000000', ' '),
    ),
    credential: fc.oneof(
      { weight: 16, arbitrary: fc.constant('adminA' as const) },
      { weight: 8, arbitrary: fc.constant('agentA' as const) },
      { weight: 1, arbitrary: fc.constant('adminB' as const) },
      { weight: 1, arbitrary: fc.constant('none' as const) },
      { weight: 2, arbitrary: fc.constant('raw' as const) },
    ),
    rawAuthorization: fc.oneof(
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Basic Zm9vOmJhcg==',
        'Bearer sk_live_abc_def',
        'Bearer sk_live_',
        'Bearer sk_live_a_b_c_d',
        'bearer sk_live_x_y',
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4IiwidGlkIjoieCJ9.c2lnbmF0dXJl',
        `Bearer ${'a'.repeat(5_000)}`,
      ),
      headerText.map((t) => `Bearer ${t}`),
    ),
    idempotencyKey: fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.constantFrom('k1', 'k2', 'k3') },
      { weight: 1, arbitrary: headerText },
      { weight: 1, arbitrary: fc.constantFrom('x'.repeat(256), 'x'.repeat(255), 'clé\u00ff', ' k1') },
    ),
    signWhatsApp: fc.boolean(),
    requestId: fc.oneof(fc.constant(null), headerText),
  });
}

/** The path id a request names, drawn from the pools as they are now. */
function pathId(lane: Lane, req: FuzzRequest, kind: string): string {
  const { poolsA, poolsB } = lane;
  const { pool, pick, text } = req.idSource;
  const from = (list: string[] | undefined) => (list?.length ? list[pick % list.length] : 'none');
  switch (pool) {
    case 'A':
      return from(poolsA[kind]);
    case 'B':
      return from(poolsB[kind]);
    case 'otherKindA':
      return from(Object.values(poolsA).flat());
    case 'odd':
      return ODD_IDS[pick % ODD_IDS.length];
    case 'random':
      return encodeSegment(text) || '%20';
  }
}

function queryString(query: unknown): string {
  if (query === undefined || query === null || typeof query !== 'object' || Array.isArray(query)) {
    return query === undefined ? '' : `q=${encodeSegment(String(toJsonText(query)).slice(0, 500))}`;
  }
  const parts: string[] = [];
  for (const key of Object.keys(query)) {
    const value = (query as Record<string, unknown>)[key];
    const values = Array.isArray(value) ? value.slice(0, 5) : [value];
    for (const item of values) {
      const text = typeof item === 'string' ? item : (toJsonText(item) ?? '');
      parts.push(`${encodeSegment(key.slice(0, 100))}=${encodeSegment(text.slice(0, 1_000))}`);
    }
  }
  // Node answers a request line over 16 KiB itself (431, before any route): stay well below.
  return parts.join('&').slice(0, 8_000);
}

interface Built {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer<ArrayBuffer> | undefined;
  credential: Credential;
}

const routeById = new Map(routes.map((route) => [route.operationId, route]));

function build(lane: Lane, req: FuzzRequest): Built {
  const { a, b, agentTokenA } = lane;
  const route = routeById.get(req.route) as AnyRoute;
  const segment = route.path.split('/')[1];
  const path = route.path.replace(/\{\w+\}/g, () => pathId(lane, req, KIND_OF_SEGMENT[segment] ?? 'bkg'));
  const query = [queryString(req.query), req.queryTail.replace(/^&/, '')].filter(Boolean).join('&');
  const headers: Record<string, string> = {};
  const tenant = { A: a.tenantId, B: b.tenantId, none: null, raw: req.rawTenant }[req.tenant];
  if (tenant !== null) headers['X-Tenant-ID'] = tenant;
  const authorization = {
    adminA: `Bearer ${a.apiKey}`,
    agentA: `Bearer ${agentTokenA}`,
    adminB: `Bearer ${b.apiKey}`,
    none: null,
    raw: req.rawAuthorization,
  }[req.credential];
  if (authorization !== null) headers.Authorization = authorization;
  if (req.idempotencyKey !== null) headers['Idempotency-Key'] = req.idempotencyKey;
  if (req.requestId !== null) headers['X-Request-Id'] = req.requestId;
  let body: string | Buffer<ArrayBuffer> | undefined;
  if (req.method !== 'GET') {
    const text = toJsonText(req.body);
    switch (req.bodyMode) {
      case 'json':
        body = text;
        break;
      case 'none':
        body = undefined;
        break;
      case 'malformed':
        body = `${(text ?? '{').slice(0, Math.max(1, (text?.length ?? 2) - 1))}\u0000,`;
        break;
      case 'bytes':
        body = Buffer.concat([
          Buffer.from('{"text":"'),
          Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
          Buffer.from('"}'),
        ]);
        break;
      case 'huge':
        body = `{"text":"${'a'.repeat(1024 * 1024 + 10)}"}`;
        break;
    }
    if (body !== undefined && req.contentType !== null) headers['Content-Type'] = req.contentType;
    if (route.operationId === 'receiveWhatsAppWebhook' && req.signWhatsApp && body !== undefined) {
      headers['X-Hub-Signature-256'] = hubSignature(Buffer.from(body), APP_SECRET);
    }
  }
  return {
    method: req.method,
    path: query ? `${path}?${query}` : path,
    headers,
    body,
    credential: req.credential,
  };
}

/** One select: per tenant, the count (and latest update) of everything a request could write. */
const COUNTS_SQL = `
  select t.id,
    (select count(*) from bookings x where x.tenant_id = t.id)::int as bookings,
    (select max(updated_at) from bookings x where x.tenant_id = t.id)::text as bookings_at,
    (select count(*) from payments x where x.tenant_id = t.id)::int as payments,
    (select max(updated_at) from payments x where x.tenant_id = t.id)::text as payments_at,
    (select count(*) from conversations x where x.tenant_id = t.id)::int as conversations,
    (select max(updated_at) from conversations x where x.tenant_id = t.id)::text as conversations_at,
    (select count(*) from messages x where x.tenant_id = t.id)::int as messages,
    (select max(updated_at) from messages x where x.tenant_id = t.id)::text as messages_at,
    (select count(*) from channels x where x.tenant_id = t.id)::int as channels,
    (select count(*) from webhook_endpoints x where x.tenant_id = t.id)::int as endpoints,
    (select max(updated_at) from webhook_endpoints x where x.tenant_id = t.id)::text as endpoints_at,
    (select count(*) from events x where x.tenant_id = t.id)::int as events,
    (select count(*) from deliveries x where x.tenant_id = t.id)::int as deliveries,
    (select max(updated_at) from deliveries x where x.tenant_id = t.id)::text as deliveries_at,
    (select count(*) from delivery_attempts x where x.tenant_id = t.id)::int as attempts,
    (select count(*) from api_keys x where x.tenant_id = t.id)::int as api_keys,
    (select count(revoked_at) from api_keys x where x.tenant_id = t.id)::int as api_keys_revoked,
    (select count(*) from memberships x where x.tenant_id = t.id)::int as memberships,
    (select count(*) from memberships x where x.tenant_id = t.id and x.role = 'admin')::int as admins,
    (select count(*) from invitations x where x.tenant_id = t.id)::int as invitations,
    (select count(revoked_at) from invitations x where x.tenant_id = t.id)::int as invitations_revoked,
    (select count(*) from password_resets x where x.tenant_id = t.id)::int as password_resets,
    (select count(*) from audit_log x where x.tenant_id = t.id)::int as audit_entries,
    (select count(*) from idempotency_keys x where x.tenant_id = t.id)::int as idempotency_keys,
    (select count(*) from payment_provider_connections x where x.tenant_id = t.id)::int as payment_providers,
    (select count(*) from stripe_events x where x.tenant_id = t.id)::int as stripe_events
  from tenants t where t.id = any($1::uuid[]) order by t.id`;

type Counts = Record<string, Record<string, unknown>>;

async function counts({ a, b }: Lane): Promise<Counts> {
  const { rows } = await pgPool().query(COUNTS_SQL, [[a.tenantId, b.tenantId]]);
  return Object.fromEntries(rows.map(({ id, ...rest }) => [id === a.tenantId ? 'A' : 'B', rest]));
}

function describeRequest(built: Built): string {
  const body =
    built.body === undefined
      ? ''
      : typeof built.body === 'string'
        ? built.body.slice(0, 300)
        : `<${built.body.byteLength} bytes>`;
  const headers = Object.fromEntries(
    Object.entries(built.headers).map(([k, v]) => [k, v.length > 80 ? `${v.slice(0, 80)}…` : v]),
  );
  return `${built.method} ${built.path.slice(0, 300)} ${JSON.stringify(headers)} ${body}`;
}

describe('fuzz: generated hostile requests against every route', () => {
  beforeAll(async () => {
    const pairs = [{ a, b }];
    for (let i = 1; i < LANES; i++) {
      const [ai, bi] = await Promise.all([suite.newTenant(`A${i}`), suite.newTenant(`B${i}`)]);
      pairs.push({ a: ai, b: bi });
    }
    const base = 400_000_000 + Math.floor(Math.random() * 1e8);
    await Promise.all(
      pairs.map(async (pair, index) => {
        const lane: Lane = {
          index,
          ...pair,
          poolsA: {},
          poolsB: {},
          idsOfB: new Set([pair.b.adminUserId]),
          numberA: String(base + 10 * index),
          agentTokenA: await signAccessToken({
            userId: pair.a.agentUserId,
            tenantId: pair.a.tenantId,
            role: 'agent',
          }),
        };
        await seed(lane.a, lane.poolsA, lane.numberA);
        await seed(lane.b, lane.poolsB, String(base + 10 * index + 1));
        for (const id of Object.values(lane.poolsB).flat()) lane.idsOfB.add(id);
        lanes[index] = lane;
      }),
    );
  }, 120_000);

  it(`keeps its contract for ${RUNS} requests (seed ${SEED})`, async () => {
    const statuses = new Map<number, number>();
    const codes = new Map<string, number>();
    let sent = 0;
    const started = performance.now();

    const runLane = async (lane: Lane) => {
      const { a } = lane;
      const arbitrary = fc.oneof(...routes.map((route) => requestArbitrary(lane, route)));
      let before = await counts(lane);
      await fc.assert(
        fc.asyncProperty(arbitrary, async (req) => {
          const built = build(lane, req);
          const where = `lane ${lane.index}: ${describeRequest(built)}`;
          const url = `${suite.url}/api/v1${built.path}`;
          const response = await fetch(url, {
            method: built.method,
            headers: built.headers,
            body: built.body,
          });
          sent++;
          const text = await response.text();
          const status = response.status;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          const contentType = response.headers.get('content-type');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          expect(status, `5xx for ${where}: ${text.slice(0, 500)}`).toBeLessThan(500);
          // The test server checked the exchange against the OpenAPI document as it answered.
          try {
            assertExchangeConforms(
              response.headers.get('x-request-id'),
              () => {
                throw new Error('the test server recorded no verdict for this answer');
              },
              { hostile: true },
            );
          } catch (error) {
            throw new Error(`${(error as Error).message.slice(0, 1_500)} for ${where}`);
          }
          const after = await counts(lane);
          if (status >= 400) {
            const problem = json as { code?: unknown; status?: unknown; request_id?: unknown };
            expect(contentType, where).toMatch(/^application\/problem\+json/);
            expect(typeof problem.code, where).toBe('string');
            expect(problem.status, where).toBe(status);
            expect(typeof problem.request_id, where).toBe('string');
            codes.set(String(problem.code), (codes.get(String(problem.code)) ?? 0) + 1);
            // The one write a refused request may make: the stored outcome of an Idempotency-Key.
            const stored = built.method === 'POST' && built.headers['Idempotency-Key'] !== undefined;
            for (const t of ['A', 'B'] as const) {
              const allowed = { ...after[t] };
              const keys = before[t].idempotency_keys as number;
              if (stored && allowed.idempotency_keys === keys + 1) allowed.idempotency_keys = keys;
              expect(
                allowed,
                `refused ${status} ${String(problem.code)} wrote to tenant ${t}: ${where}`,
              ).toEqual(before[t]);
            }
          } else {
            if (built.credential !== 'adminB') {
              const leaked = [...lane.idsOfB].filter((id) => text.includes(id));
              expect(leaked, `tenant B's ids in a success answer to ${where}`).toEqual([]);
            }
            const id = (json as { id?: unknown } | undefined)?.id;
            if (status === 201 && typeof id === 'string' && built.headers['X-Tenant-ID'] === a.tenantId) {
              const kind = id.split('_')[0];
              lane.poolsA[kind] ??= [];
              if (lane.poolsA[kind].length < 40) lane.poolsA[kind].push(id);
            }
          }
          before = after;
        }),
        {
          seed: SEED + lane.index,
          numRuns: Math.ceil(RUNS / LANES),
          endOnFailure: true,
          // The default report prints the whole generated value (100 KB strings): the request is
          // already described in the assertion message.
          asyncReporter: async (details) => {
            if (!details.failed) return;
            const message = details.errorInstance instanceof Error ? details.errorInstance.message : '';
            throw new Error(
              `fuzz failed after ${details.numRuns} requests (seed ${details.seed}, path ` +
                `${details.counterexamplePath}): ${message.slice(0, 2_000)}`,
            );
          },
        },
      );
    };
    await Promise.all(lanes.map(runLane));

    const seconds = (performance.now() - started) / 1000;
    const histogram = Object.fromEntries([...statuses].sort(([x], [y]) => x - y));
    const byCode = Object.fromEntries([...codes].sort(([, x], [, y]) => y - x));
    console.log(
      `fuzz: seeds ${SEED}..${SEED + LANES - 1} (${LANES} lanes), ${sent} requests in ${seconds.toFixed(1)} s ` +
        `(${Math.round(sent / seconds)}/s) over ${routes.length} routes\n` +
        `  statuses ${JSON.stringify(histogram)}\n  problem codes ${JSON.stringify(byCode)}`,
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    expect(statuses.size).toBeGreaterThan(5);
  }, 600_000);

  // The fuzzer's findings, pinned: each answered 500 before its fix.
  it('refuses an amount the integer column cannot hold with 422, not 500', async () => {
    const res = await a.admin('POST', '/payments', { body: { amount: 2_147_483_648, currency: 'EUR' } });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].path).toBe('amount');
    expect(
      (await a.admin('POST', '/payments', { body: { amount: 2_147_483_647, currency: 'EUR' } })).status,
    ).toBe(201);
  });

  it('refuses JSON nested deeper than the limit with 422, not a stack overflow', async () => {
    for (const depth of [65, 50_000, 400_000]) {
      const rawBody = `{"name":"k","metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const res = await a.admin('POST', '/api-keys', {
        rawBody,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status, `depth ${depth}: ${res.text.slice(0, 300)}`).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
    const signed = `{"object":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    const inbound = await suite.api('POST', '/channels/whatsapp/webhook', {
      rawBody: signed,
      headers: {
        'Content-Type': 'application/json',
        'X-Hub-Signature-256': hubSignature(signed, APP_SECRET),
      },
    });
    expect(inbound.status, inbound.text.slice(0, 300)).toBe(422);
  });
});
