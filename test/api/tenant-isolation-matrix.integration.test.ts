// Tenant isolation, roles and credentials, generated from the REST route table and the tRPC router.
// For every tenant REST route: (a) tenant B's credentials (key, agent token, assistant session token)
// with tenant A's X-Tenant-ID → 403 tenant_mismatch; (b) A's credential and header with B's resource
// ids (of every kind) in the path → 404 not_found, and B's ids in bodies and filters → 422 or an empty
// list; (c) an agent on every admin route → 403 forbidden; (d) A's own assistant session token on
// every route but the one that takes it (POST /mcp) → 403 forbidden; (e) a restricted key on every
// route whose permission it lacks → 403 forbidden naming that permission, and a read-only key on
// every route that is not a read. For every tRPC procedure: B's ids with A's viewer → NOT_FOUND (or an
// empty list), an agent on admin procedures → FORBIDDEN, a session claiming B's tenant → FORBIDDEN.
// None of those refusals writes anything, and no answer carries B's ids. The tables below say how
// each route's and procedure's ids are filled; a route or procedure missing from them fails the
// coverage test by name.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@/server/api/routes';
import { signAccessToken } from '@/server/auth/jwt';
import { startWebSession } from '@/server/auth/web-sessions';
import { hasPermission, KEY_PRESETS, type Permission, permissionsOf } from '@/server/client-safe/permissions';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import type { AnyRoute } from '@/server/http/route';
import { viewerFromSession } from '@/server/trpc/membership';
import { appRouter, createCaller } from '@/server/trpc/root';
import { givenResource, givenService, serviceBooking } from '../support/booking-fixtures';
import {
  bookingBody,
  conversationBody,
  givenBooking,
  givenChannel,
  givenConversation,
  givenEndpoint,
  givenPayment,
  paymentBody,
} from '../support/builders';
import { TEST_ENV } from '../support/env';
import { type FakeGraph, startFakeGraph } from '../support/fake-graph';
import { type Api, apiSuite, type SuiteTenant } from '../support/harness';
import { client } from '../support/helpers';
import { rememberSecret } from '../support/log-scan';

let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph();
  Object.assign(process.env, {
    API_RATE_LIMIT_PER_SECOND: '0',
    API_RATE_LIMIT_PER_TENANT_PER_SECOND: '0',
    WHATSAPP_GRAPH_URL: graph.url,
  });
  resetSettingsCache();
});
afterAll(async () => {
  await graph.close();
  process.env.API_RATE_LIMIT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_SECOND;
  process.env.API_RATE_LIMIT_PER_TENANT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_TENANT_PER_SECOND;
  resetSettingsCache();
});
const suite = apiSuite({ other: true, agent: true });
const { tenant: a, other: b } = suite;

const KINDS = [
  'booking',
  'payment',
  'conversation',
  'message',
  'channel',
  'endpoint',
  'delivery',
  'event',
  'apiKey',
  'member',
  'invitation',
  'resource',
  'service',
  'timeOff',
  'assistantSession',
] as const;
type Kind = (typeof KINDS)[number];
type Ids = Record<Kind, string> & { userId: string; agentId: string };

/** How a REST route is called in the matrix. */
interface RestCase {
  /** The resource kind its `{id}` names. */
  id?: Kind;
  /** A valid body (so a refusal can only come from tenancy, role or the id). */
  body?: (own: Ids) => unknown;
  /** The other tenant's ids in the body or query: `422` refused, `empty` an empty list. */
  foreignInput?: {
    body?: (foreign: Ids) => unknown;
    query?: (foreign: Ids) => string;
    expect: 422 | 'empty';
  };
  /** A public route: why it is outside the tenant matrix. */
  public?: string;
  /** The query a GET without an id needs to answer 200 (its required filters, with the caller's own ids). */
  query?: (own: Ids) => string;
}

let phone = 700_000_000 + Math.floor(Math.random() * 1e8);
const REST: Record<string, RestCase> = {
  login: { public: 'no tenant credential; the user picks the tenant' },
  refreshSession: { public: 'the refresh token names its tenant' },
  logout: { public: 'the refresh token names its tenant' },
  getOpenApiDocument: { public: 'the same document for everyone' },
  verifyWhatsAppWebhook: { public: "Meta's verification, no tenant" },
  receiveWhatsAppWebhook: { public: 'routed by phone_number_id, signed by Meta' },
  receiveStripeWebhook: {
    public: "routed by the tenant id in its path, signed with that tenant's own secret",
  },

  createApiKey: { body: () => ({ name: 'matrix' }) },
  listApiKeys: {},
  revokeApiKey: { id: 'apiKey' },
  rotateApiKey: { id: 'apiKey', body: () => ({}) },

  listBookings: {},
  createBooking: {
    body: () => bookingBody(),
    foreignInput: { body: (f) => serviceBooking(f.service, '2030-01-07T10:00:00.000Z'), expect: 422 },
  },
  rescheduleBooking: { id: 'booking', body: () => ({ start_at: '2030-01-08T10:00:00.000Z' }) },
  markBookingNoShow: { id: 'booking' },
  listSlots: {
    query: (own) => `?service_id=${own.service}&start=2030-01-07&end=2030-01-08`,
    foreignInput: { query: (f) => `?service_id=${f.service}&start=2030-01-07&end=2030-01-08`, expect: 422 },
  },
  listResources: {},
  createResource: { body: () => ({ name: 'matrix', time_zone: 'UTC', weekly_hours: {} }) },
  getResource: { id: 'resource' },
  updateResource: { id: 'resource', body: () => ({ name: 'matrix' }) },
  deleteResource: { id: 'resource' },
  getResourceSchedule: { id: 'resource' },
  createTimeOff: {
    id: 'resource',
    body: () => ({ start_at: '2030-01-01T00:00:00Z', end_at: '2030-01-02T00:00:00Z' }),
  },
  listTimeOff: { id: 'resource' },
  // {time_off_id} is filled with the caller's own time off; (b) also tries B's time off on A's resource.
  deleteTimeOff: { id: 'resource' },
  getResourceCalendarFeed: { id: 'resource' },
  rotateResourceCalendarFeed: { id: 'resource' },
  getResourceCalendar: {
    public: 'the feed token in the URL is the credential (calendar apps send no headers)',
  },
  listServices: {},
  createService: {
    body: (own) => ({ name: 'matrix', duration_minutes: 30, resource_ids: [own.resource] }),
    foreignInput: {
      body: (f) => ({ name: 'matrix', duration_minutes: 30, resource_ids: [f.resource] }),
      expect: 422,
    },
  },
  getService: { id: 'service' },
  updateService: { id: 'service', body: () => ({ name: 'matrix' }) },
  deleteService: { id: 'service' },
  getBooking: { id: 'booking' },
  updateBooking: { id: 'booking', body: () => ({ notes: 'matrix' }) },
  confirmBooking: { id: 'booking' },
  cancelBooking: { id: 'booking', body: () => ({}) },
  completeBooking: { id: 'booking' },

  listPayments: { foreignInput: { query: (f) => `?booking_id=${f.booking}`, expect: 'empty' } },
  createPayment: {
    body: () => paymentBody(),
    foreignInput: { body: (f) => paymentBody({ booking_id: f.booking }), expect: 422 },
  },
  getPayment: { id: 'payment' },
  succeedPayment: { id: 'payment', body: () => ({}) },
  failPayment: { id: 'payment' },
  refundPayment: { id: 'payment', body: () => ({}) },

  connectStripe: {
    body: () => ({
      secret_key: 'sk_test_matrixKeyOfNoAccount0000',
      webhook_secret: 'whsec_matrixSecret0000',
    }),
  },
  listPaymentProviders: {},
  disconnectStripe: {},

  listConversations: { foreignInput: { query: (f) => `?assignee_id=${f.agentId}`, expect: 'empty' } },
  createConversation: {
    body: () => conversationBody(),
    foreignInput: {
      body: (f) => ({ channel: 'whatsapp', channel_id: f.channel, contact: { phone: '+15550002222' } }),
      expect: 422,
    },
  },
  getConversation: { id: 'conversation' },
  listConversationMessages: { id: 'conversation' },
  sendConversationMessage: { id: 'conversation', body: () => ({ text: 'matrix' }) },
  // {message_id} is filled with the caller's own message; (b) also tries B's message in A's conversation.
  getMessageMedia: { id: 'conversation' },
  handoffConversation: { id: 'conversation', body: () => ({ reason: 'matrix' }) },
  offerTimes: {
    id: 'conversation',
    body: (own) => ({ service_id: own.service }),
    foreignInput: { body: (f) => ({ service_id: f.service }), expect: 422 },
  },
  assignConversation: {
    id: 'conversation',
    body: (own) => ({ user_id: own.agentId }),
    foreignInput: { body: (f) => ({ user_id: f.agentId }), expect: 422 },
  },
  resolveConversation: { id: 'conversation' },

  createChannel: {
    body: () => ({ type: 'whatsapp', phone_number_id: String(phone++), access_token: 'tok' }),
  },
  listChannels: {},
  deleteChannel: { id: 'channel' },

  createWebhookEndpoint: { body: () => ({ url: 'http://127.0.0.1:9/matrix', events: ['*'] }) },
  listWebhookEndpoints: {},
  getWebhookEndpoint: { id: 'endpoint' },
  updateWebhookEndpoint: { id: 'endpoint', body: () => ({ description: 'matrix' }) },
  deleteWebhookEndpoint: { id: 'endpoint' },
  rotateWebhookSecret: { id: 'endpoint' },
  sendWebhookTestEvent: { id: 'endpoint' },
  verifyWebhookReceiver: { id: 'endpoint' },
  listWebhookDeliveries: { id: 'endpoint' },
  getWebhookStats: { id: 'endpoint' },
  recoverWebhookDeliveries: { id: 'endpoint', body: () => ({ since: '2020-01-01T00:00:00Z' }) },

  listDeliveries: {
    foreignInput: { query: (f) => `?endpoint_id=${f.endpoint}&object_id=${f.booking}`, expect: 'empty' },
  },
  getDelivery: { id: 'delivery' },
  resendDelivery: { id: 'delivery' },

  listEventTypes: {},
  listEvents: {},
  getEvent: { id: 'event' },

  listMembers: {},
  changeMemberRole: { id: 'member', body: () => ({ role: 'agent' }) },
  removeMember: { id: 'member' },
  createPasswordReset: { id: 'member' },
  createInvitation: { body: () => ({ email: `matrix-${phone++}@example.test`, role: 'agent' }) },
  listInvitations: {},
  revokeInvitation: { id: 'invitation' },
  listAuditLog: { foreignInput: { query: (f) => `?actor_id=${f.userId}`, expect: 'empty' } },
  createAssistantSession: { id: 'conversation', body: () => ({ ttl_seconds: 60 }) },
  revokeAssistantSession: { id: 'assistantSession' },
  // The assistant's tools: refused before any protocol work like every route; what a tool call does
  // with B's ids (not_found, empty lists, 422) is test/api/mcp-tools-match-rest.integration.test.ts's "tenant isolation".
  sendMcpMessages: { body: () => ({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) },
};

/** How a tRPC procedure is called: its input with the given ids, and what it needs. */
interface TrpcCase {
  admin: boolean;
  input: (ids: Ids) => unknown;
  /** Names one resource by id: the other tenant's id answers NOT_FOUND (a filtered list: or nothing). */
  byId?: Kind;
  /** Needs no session (a one-time link's token is the credential): why it is outside the matrix. */
  public?: string;
  /** The other tenant's ids in its input are refused with 422 (as its REST row's foreignInput says). */
  refusesForeignInput?: boolean;
}

/**
 * The procedures written by hand (no REST twin). Every other procedure is derived from a REST route
 * (server/trpc/from-route.ts) and gets its row from that route's row in REST, below.
 */
const HAND_WRITTEN: Record<string, TrpcCase> = {
  'links.invitation': {
    admin: false,
    input: () => ({ token: 'matrix' }),
    public: 'the token names the tenant',
  },
  'links.acceptInvitation': {
    admin: false,
    input: () => ({ token: 'matrix', name: 'M', password: 'a long password' }),
    public: 'the token names the tenant',
  },
  'links.passwordReset': {
    admin: false,
    input: () => ({ token: 'matrix' }),
    public: 'the token names the user',
  },
  'links.completePasswordReset': {
    admin: false,
    input: () => ({ token: 'matrix', password: 'a long password' }),
    public: 'the token names the user',
  },
  'overview.get': {
    admin: true,
    input: () => ({
      dayStart: new Date(Date.now() - 3_600_000).toISOString(),
      dayEnd: new Date().toISOString(),
    }),
  },
};

/** The procedure's input of a REST row: the path parameters by their REST names, plus the body. */
function derivedCase(route: AnyRoute, row: RestCase): TrpcCase {
  return {
    admin: route.auth === 'tenant' && !hasPermission('agent', route.permission),
    byId: row.id,
    refusesForeignInput: row.foreignInput?.expect === 422,
    input: (ids) => ({
      ...(row.id ? { id: ids[row.id] } : {}),
      ...(route.path.includes('{message_id}') ? { message_id: ids.message } : {}),
      ...(route.path.includes('{time_off_id}') ? { time_off_id: ids.timeOff } : {}),
      ...(row.query ? Object.fromEntries(new URLSearchParams(row.query(ids))) : {}),
      ...((row.body?.(ids) as object | undefined) ?? {}),
    }),
  };
}

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
const tenantRoutes = routes.filter((route) => route.auth === 'tenant');
/** The REST route a procedure is derived from: its name is `<module>.<operationId>`. */
const routeOf = (procedure: string) => tenantRoutes.find((r) => r.operationId === procedure.split('.').pop());
const TRPC: Record<string, TrpcCase> = Object.fromEntries(
  Object.keys(procedures).map((name) => {
    const route = routeOf(name);
    return [name, route ? derivedCase(route, REST[route.operationId]) : HAND_WRITTEN[name]];
  }),
);

/** One resource of every kind, made through the API; the api key is one the matrix may revoke. */
async function resourcesOf(t: SuiteTenant, number: string): Promise<Ids> {
  const booking = await givenBooking(t.admin);
  const payment = await givenPayment(t.admin);
  const conversation = await givenConversation(t.admin);
  // A web conversation has no sender: the message is stored (failed), which is all the matrix needs.
  const message = await t.admin('POST', `/conversations/${conversation.id}/messages`, {
    body: { text: 'hi' },
  });
  expect(message.status, message.text).toBe(201);
  const channel = await givenChannel(t.admin, number);
  const endpoint = await givenEndpoint(t.admin, 'http://127.0.0.1:9/hook');
  const test = await t.admin('POST', `/webhooks/${endpoint.id}/test`);
  expect(test.status, test.text).toBe(202);
  const key = await t.admin('POST', '/api-keys', { body: { name: 'matrix target' } });
  expect(key.status, key.text).toBe(201);
  const resource = await givenResource(t.admin);
  const service = await givenService(t.admin, [resource.id]);
  const timeOff = await t.admin('POST', `/resources/${resource.id}/time-off`, {
    body: { start_at: '2031-01-01T00:00:00Z', end_at: '2031-01-02T00:00:00Z' },
  });
  expect(timeOff.status, timeOff.text).toBe(201);
  const invitation = await t.admin('POST', '/invitations', {
    body: { email: `invitee-${t.tenantId}@example.test`, role: 'agent' },
  });
  expect(invitation.status, invitation.text).toBe(201);
  const session = await t.admin('POST', `/conversations/${conversation.id}/assistant-sessions`, { body: {} });
  expect(session.status, session.text).toBe(201);
  rememberSecret('assistant session token', session.body.token);
  sessionTokens.set(t.tenantId, session.body.token);
  return {
    booking: booking.id,
    payment: payment.id,
    conversation: conversation.id,
    message: message.body.id,
    channel: channel.id,
    endpoint: endpoint.id,
    delivery: test.body.delivery.id,
    event: test.body.event.id,
    apiKey: key.body.id,
    member: t.agentUserId,
    invitation: invitation.body.id,
    resource: resource.id,
    service: service.id,
    timeOff: timeOff.body.id,
    assistantSession: session.body.id,
    userId: t.adminUserId,
    agentId: t.agentUserId,
  };
}

const STATE_SQL = `
  select
    (select count(*) from bookings where tenant_id = $1)::int as bookings,
    (select max(updated_at) from bookings where tenant_id = $1)::text as bookings_at,
    (select count(*) from payments where tenant_id = $1)::int as payments,
    (select max(updated_at) from payments where tenant_id = $1)::text as payments_at,
    (select count(*) from conversations where tenant_id = $1)::int as conversations,
    (select max(updated_at) from conversations where tenant_id = $1)::text as conversations_at,
    (select count(*) from messages where tenant_id = $1)::int as messages,
    (select count(*) from channels where tenant_id = $1)::int as channels,
    (select count(*) from webhook_endpoints where tenant_id = $1)::int as endpoints,
    (select max(updated_at) from webhook_endpoints where tenant_id = $1)::text as endpoints_at,
    (select count(*) from events where tenant_id = $1)::int as events,
    (select count(*) from deliveries where tenant_id = $1)::int as deliveries,
    (select count(*) from api_keys where tenant_id = $1)::int as api_keys,
    (select count(revoked_at) from api_keys where tenant_id = $1)::int as api_keys_revoked,
    (select count(*) from idempotency_keys where tenant_id = $1)::int as idempotency_keys,
    (select count(*) from memberships where tenant_id = $1)::int as memberships,
    (select count(*) from memberships where tenant_id = $1 and role = 'admin')::int as admins,
    (select count(*) from invitations where tenant_id = $1)::int as invitations,
    (select count(revoked_at) from invitations where tenant_id = $1)::int as invitations_revoked,
    (select count(*) from password_resets where tenant_id = $1)::int as password_resets,
    (select count(*) from audit_log where tenant_id = $1)::int as audit_entries,
    (select count(*) from payment_provider_connections where tenant_id = $1)::int as payment_providers,
    (select count(*) from stripe_events where tenant_id = $1)::int as stripe_events,
    (select count(*) from resources where tenant_id = $1)::int as resources,
    (select max(updated_at) from resources where tenant_id = $1)::text as resources_at,
    (select string_agg(coalesce(calendar_token_hash, ''), ',' order by id) from resources where tenant_id = $1) as feed_tokens,
    (select count(*) from services where tenant_id = $1)::int as services,
    (select max(updated_at) from services where tenant_id = $1)::text as services_at,
    (select count(*) from time_off where tenant_id = $1)::int as time_off,
    (select count(*) from timers where tenant_id = $1)::int as timers,
    (select count(*) from assistant_sessions where tenant_id = $1)::int as assistant_sessions,
    (select count(revoked_at) from assistant_sessions where tenant_id = $1)::int as assistant_sessions_ended`;

async function stateOf(tenantId: string) {
  return (await pgPool().query(STATE_SQL, [tenantId])).rows[0];
}

let ownIds: Ids;
let foreignIds: Ids;
let foreignIdList: string[];
let bAgent: Api;
let cases = 0;
/** Each tenant's assistant session token, minted for its conversation. */
const sessionTokens = new Map<string, string>();

function pathOf(
  route: AnyRoute,
  id: string | undefined,
  messageId = ownIds.message,
  timeOffId = ownIds.timeOff,
): string {
  return route.path
    .replace('{id}', id ?? 'missing')
    .replace('{message_id}', messageId)
    .replace('{time_off_id}', timeOffId);
}

function noForeignIds(text: string, where: string) {
  const leaked = foreignIdList.filter((id) => text.includes(id));
  expect(leaked, `${where} answered tenant B's ids`).toEqual([]);
}

describe('isolation matrix', () => {
  beforeAll(async () => {
    const number = 600_000_000 + Math.floor(Math.random() * 1e8);
    [ownIds, foreignIds] = await Promise.all([
      resourcesOf(a, String(number)),
      resourcesOf(b, String(number + 1)),
    ]);
    foreignIdList = [...KINDS.map((k) => foreignIds[k]), foreignIds.userId, foreignIds.agentId];
    const token = await signAccessToken({ userId: b.agentUserId, tenantId: b.tenantId, role: 'agent' });
    bAgent = client(suite.url, { tenantId: a.tenantId, token });
  }, 60_000);

  afterAll(() => {
    console.log(
      `isolation matrix: ${cases} cases (${routes.length} REST routes, ${Object.keys(procedures).length} tRPC procedures)`,
    );
  });

  it('covers every REST route and tRPC procedure (and names no stale ones)', () => {
    const missing = routes
      .filter((r) => !REST[r.operationId])
      .map((r) => `${r.operationId} (${r.method} ${r.path})`);
    expect(missing, 'REST routes without a row in the REST table of this file').toEqual([]);
    const stale = Object.keys(REST).filter((id) => !routes.some((r) => r.operationId === id));
    expect(stale, 'rows for routes that no longer exist').toEqual([]);
    for (const route of routes) {
      const row = REST[route.operationId];
      expect(Boolean(row.public), `${route.operationId}: public in the table iff public in the route`).toBe(
        route.auth === 'public',
      );
      // A public route is called without a tenant credential: no id of either tenant is filled in.
      if (!row.public) {
        expect(Boolean(row.id), `${route.operationId}: an id kind iff the path has {id}`).toBe(
          route.path.includes('{id}'),
        );
      }
      // A public route may name its tenant in the path ({tenant_id}): it has no X-Tenant-ID to check.
      expect(
        route.path
          .replace('{id}', '')
          .replace('{message_id}', '')
          .replace('{time_off_id}', '')
          .replace(route.auth === 'public' ? '{tenant_id}' : '', ''),
        `${route.operationId}: only {id}, {message_id} and {time_off_id} are filled`,
      ).not.toMatch(/\{/);
    }
    const names = Object.keys(procedures);
    expect(
      names.filter((p) => !TRPC[p]),
      'hand-written tRPC procedures without a row in the HAND_WRITTEN table',
    ).toEqual([]);
    // Every tenant route but a streamed file has its procedure, with the route's permission.
    for (const route of tenantRoutes.filter((r) => !r.restOnly)) {
      expect(
        names.filter((n) => n.endsWith(`.${route.operationId}`)),
        `${route.operationId}: one derived procedure`,
      ).toHaveLength(1);
    }
    expect(
      Object.keys(HAND_WRITTEN).filter((p) => !names.includes(p)),
      'rows for procedures that no longer exist',
    ).toEqual([]);
  });

  it("(a) tenant B's credentials with tenant A's X-Tenant-ID: 403 tenant_mismatch, nothing written", async () => {
    const before = [await stateOf(a.tenantId), await stateOf(b.tenantId)];
    const bAdmin = client(suite.url, { tenantId: a.tenantId, token: b.apiKey });
    const bSession = client(suite.url, { tenantId: a.tenantId, token: sessionTokens.get(b.tenantId) });
    for (const route of tenantRoutes) {
      const row = REST[route.operationId];
      for (const [who, api] of [
        ['B admin key', bAdmin],
        ['B agent token', bAgent],
        ['B assistant session token', bSession],
      ] as const) {
        const path = pathOf(route, row.id && ownIds[row.id]);
        const res = await api(route.method, path, row.body ? { body: row.body(ownIds) } : {});
        cases++;
        const where = `${route.operationId} with ${who}`;
        expect([res.status, res.body?.code], where).toEqual([403, 'tenant_mismatch']);
        noForeignIds(res.text, where);
      }
    }
    expect([await stateOf(a.tenantId), await stateOf(b.tenantId)]).toEqual(before);
  });

  it("(b) tenant B's ids in A's requests: 404 not_found in paths, 422 or nothing in bodies and filters", async () => {
    const before = [await stateOf(a.tenantId), await stateOf(b.tenantId)];
    for (const route of tenantRoutes) {
      const row = REST[route.operationId];
      const callers: [string, Api][] = [['A admin key', a.admin]];
      if (hasPermission('agent', route.permission)) callers.push(['A agent token', a.agent]);
      for (const [who, api] of callers) {
        if (row.id) {
          // Every kind of B's ids, not only the route's own: a wrong-kind id must not match either.
          for (const kind of KINDS) {
            const res = await api(
              route.method,
              pathOf(route, foreignIds[kind]),
              row.body ? { body: row.body(ownIds) } : {},
            );
            cases++;
            const where = `${route.operationId} with B's ${kind} as ${who}`;
            expect([res.status, res.body?.code], `${where}: ${res.text.slice(0, 200)}`).toEqual([
              404,
              'not_found',
            ]);
            noForeignIds(res.text, where);
          }
        }
        if (route.path.includes('{time_off_id}')) {
          const res = await api(route.method, pathOf(route, ownIds.resource, undefined, foreignIds.timeOff));
          cases++;
          const where = `${route.operationId} with B's time off on A's resource as ${who}`;
          expect([res.status, res.body?.code], where).toEqual([404, 'not_found']);
          noForeignIds(res.text, where);
        }
        if (route.path.includes('{message_id}')) {
          const res = await api(route.method, pathOf(route, ownIds.conversation, foreignIds.message));
          cases++;
          const where = `${route.operationId} with B's message in A's conversation as ${who}`;
          expect([res.status, res.body?.code], where).toEqual([404, 'not_found']);
          noForeignIds(res.text, where);
        }
        const foreign = row.foreignInput;
        if (foreign) {
          const path = pathOf(route, row.id && ownIds[row.id]) + (foreign.query?.(foreignIds) ?? '');
          const res = await api(route.method, path, foreign.body ? { body: foreign.body(foreignIds) } : {});
          cases++;
          const where = `${route.operationId} with B's ids in its input as ${who}`;
          if (foreign.expect === 'empty') expect([res.status, res.body.data], where).toEqual([200, []]);
          else
            expect([res.status, res.body?.code], `${where}: ${res.text}`).toEqual([422, 'validation_failed']);
          noForeignIds(res.text, where);
        }
      }
      // A list route answers only A's resources.
      if (route.method === 'GET' && !row.id) {
        const res = await a.admin('GET', route.path + (row.query?.(ownIds) ?? ''));
        cases++;
        expect(res.status, `${route.operationId}: ${res.text.slice(0, 200)}`).toBe(200);
        noForeignIds(res.text, route.operationId);
      }
    }
    expect([await stateOf(a.tenantId), await stateOf(b.tenantId)]).toEqual(before);
  });

  it('(c) an agent on every admin route: 403 forbidden, nothing written', async () => {
    const before = await stateOf(a.tenantId);
    const adminRoutes = tenantRoutes.filter((route) => !hasPermission('agent', route.permission));
    expect(adminRoutes.length).toBeGreaterThan(10);
    for (const route of adminRoutes) {
      const row = REST[route.operationId];
      const res = await a.agent(
        route.method,
        pathOf(route, row.id && ownIds[row.id]),
        row.body ? { body: row.body(ownIds) } : {},
      );
      cases++;
      expect([res.status, res.body?.code], route.operationId).toEqual([403, 'forbidden']);
    }
    expect(await stateOf(a.tenantId)).toEqual(before);
  });

  it('(d) an assistant session token on every route but POST /mcp: 403 forbidden, nothing written', async () => {
    const session = client(suite.url, { tenantId: a.tenantId, token: sessionTokens.get(a.tenantId) });
    const before = await stateOf(a.tenantId);
    const taking = tenantRoutes.filter((route) => route.acceptsAssistantSession);
    expect(taking.map((r) => r.operationId)).toEqual(['sendMcpMessages']);
    for (const route of tenantRoutes) {
      const row = REST[route.operationId];
      const res = await session(route.method, pathOf(route, row.id && ownIds[row.id]), {
        ...(row.body ? { body: row.body(ownIds) } : {}),
        headers: { Accept: 'application/json, text/event-stream' },
      });
      cases++;
      if (route.acceptsAssistantSession) {
        expect(res.status, `${route.operationId}: ${res.text.slice(0, 200)}`).toBe(200);
        continue;
      }
      expect([res.status, res.body?.code], route.operationId).toEqual([403, 'forbidden']);
      expect(res.body.detail, route.operationId).toMatch(/valid only on POST \/api\/v1\/mcp/);
    }
    expect(await stateOf(a.tenantId)).toEqual(before);
  });

  it('(e) a restricted key on every route whose permission it lacks: 403 naming it, nothing written', async () => {
    // One key per permission the routes need, holding every other permission of the admin role.
    const needed = [...new Set(tenantRoutes.map((route) => route.permission))];
    const without = new Map<Permission, Api>();
    for (const permission of needed) {
      const created = await a.admin('POST', '/api-keys', {
        body: {
          name: `without ${permission}`,
          permissions: permissionsOf('admin').filter((p) => p !== permission),
        },
      });
      expect(created.status, created.text).toBe(201);
      rememberSecret('API key', created.body.key);
      without.set(permission, client(suite.url, { tenantId: a.tenantId, token: created.body.key }));
    }
    const readOnly = await a.admin('POST', '/api-keys', {
      body: { name: 'read only', permissions: KEY_PRESETS.read_only.permissions },
    });
    expect(readOnly.status, readOnly.text).toBe(201);
    rememberSecret('API key', readOnly.body.key);
    const reader = client(suite.url, { tenantId: a.tenantId, token: readOnly.body.key });
    const before = await stateOf(a.tenantId);
    let refusedToReader = 0;
    for (const route of tenantRoutes) {
      const row = REST[route.operationId];
      const path = pathOf(route, row.id && ownIds[row.id]);
      const init = row.body ? { body: row.body(ownIds) } : {};
      const res = await (without.get(route.permission) as Api)(route.method, path, init);
      cases++;
      expect([res.status, res.body?.code], route.operationId).toEqual([403, 'forbidden']);
      expect(res.body.detail, route.operationId).toContain(route.permission);
      if (KEY_PRESETS.read_only.permissions.some((p) => p === route.permission)) continue;
      const read = await reader(route.method, path, init);
      cases++;
      refusedToReader++;
      expect([read.status, read.body?.code], `${route.operationId} with a read-only key`).toEqual([
        403,
        'forbidden',
      ]);
    }
    expect(refusedToReader).toBeGreaterThan(40);
    // The keys made above are all the state that differs.
    expect(await stateOf(a.tenantId)).toEqual(before);
  });

  describe('tRPC procedures', () => {
    async function callerFor(userId: string, tenantId: string) {
      const viewer = await viewerFromSession({
        user: { id: userId, email: 'x@example.test', name: 'X' },
        tenantId,
        sid: await startWebSession(userId),
      });
      return createCaller({ viewer });
    }

    async function call(caller: unknown, path: string, input: unknown) {
      const procedure = path
        .split('.')
        .reduce((node, key) => (node as Record<string, unknown>)[key], caller) as (
        input: unknown,
      ) => Promise<unknown>;
      return procedure(input).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    }

    function codeOf(outcome: { ok: boolean; error?: unknown }) {
      if (outcome.ok) return 'ok';
      expect(outcome.error).toBeInstanceOf(TRPCError);
      return (outcome.error as TRPCError).code;
    }

    it("B's ids with A's viewer: NOT_FOUND (or nothing); lists show none of B's resources", async () => {
      const admin = await callerFor(a.adminUserId, a.tenantId);
      const before = [await stateOf(a.tenantId), await stateOf(b.tenantId)];
      for (const [path, row] of Object.entries(TRPC)) {
        if (!row.byId) {
          if (procedures[path]._def.type !== 'query') continue;
          const outcome = await call(admin, path, row.input(ownIds));
          cases++;
          expect(codeOf(outcome), path).toBe('ok');
          noForeignIds(JSON.stringify(outcome.ok ? outcome.value : null), path);
          continue;
        }
        for (const kind of KINDS) {
          const input = row.input({ ...ownIds, [row.byId]: foreignIds[kind] });
          const outcome = await call(admin, path, input);
          cases++;
          const where = `${path} with B's ${kind}`;
          if (outcome.ok) {
            // Only a list filtered by the id may answer, and then with nothing.
            expect((outcome.value as { data?: unknown[] }).data, where).toEqual([]);
          } else {
            expect(codeOf(outcome), where).toBe('NOT_FOUND');
          }
          noForeignIds(JSON.stringify(outcome.ok ? outcome.value : (outcome.error as Error).message), where);
        }
      }
      expect([await stateOf(a.tenantId), await stateOf(b.tenantId)]).toEqual(before);
    });

    it('an agent on admin procedures: FORBIDDEN; on the others: allowed', async () => {
      const agent = await callerFor(a.agentUserId, a.tenantId);
      const before = await stateOf(a.tenantId);
      for (const [path, row] of Object.entries(TRPC)) {
        // B's ids: an allowed mutation then answers NOT_FOUND instead of changing A's data. An allowed
        // create names no id (it would create, as it should): only its refusal is checked, above.
        if (!row.admin && !row.byId && procedures[path]._def.type === 'mutation') continue;
        const outcome = await call(agent, path, row.input(foreignIds));
        cases++;
        if (row.admin) expect(codeOf(outcome), path).toBe('FORBIDDEN');
        else
          expect(
            ['ok', 'NOT_FOUND', ...(row.refusesForeignInput ? ['UNPROCESSABLE_CONTENT'] : [])],
            path,
          ).toContain(codeOf(outcome));
      }
      expect(await stateOf(a.tenantId)).toEqual(before);
    });

    it("a session that claims tenant B for A's user: FORBIDDEN everywhere", async () => {
      const claiming = await callerFor(a.adminUserId, b.tenantId);
      const before = await stateOf(b.tenantId);
      for (const [path, row] of Object.entries(TRPC)) {
        const outcome = await call(claiming, path, row.input(foreignIds));
        cases++;
        // A one-time link's page answers the same with or without a session: the token decides.
        if (row.public) expect(['ok', 'NOT_FOUND'], path).toContain(codeOf(outcome));
        else expect(codeOf(outcome), path).toBe('FORBIDDEN');
      }
      expect(await stateOf(b.tenantId)).toEqual(before);
    });
  });
});
