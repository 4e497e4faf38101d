// The AI assistant's toolbox (POST /api/v1/mcp) through the official MCP SDK's client: connect, list,
// call each tool and compare it with its REST twin, the refusals as tool errors, tenant isolation,
// credentials checked on every HTTP request before any protocol work, and the events and audit
// entries the calls leave. The in-process API server behind a loopback socket, a real database, and a
// stand-in Graph API for WhatsApp.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@/server/api/routes';
import { signAccessToken } from '@/server/auth/jwt';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { CreateBookingInput } from '@/server/domain/bookings/schemas';
import type { AnyTenantRoute } from '@/server/http/route';
import { jsonSchemaOf } from '@/server/mcp/tool';
import { hubSignature } from '@/server/whatsapp/signature';
import { dayFromNow, givenResource, givenService, utc } from '../support/booking-fixtures';
import { givenBooking, givenChannel, givenConversation } from '../support/builders';
import { eventsOf } from '../support/domain-fixtures';
import { TEST_ENV } from '../support/env';
import { textMessage, whatsappPayload } from '../support/fake-graph';
import { apiSuite, fakeGraphSuite, type SuiteTenant } from '../support/harness';
import { type Assistant, closeAssistants, connectAssistant } from '../support/mcp-client';

const APP_SECRET = 'test-whatsapp-app-secret-mcp';
const graph = fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });
const suite = apiSuite({ other: true, agent: true });
const { api, tenant: a, other: b } = suite;

const TOOLS = [
  'find_slots',
  'offer_slots',
  'book_slot',
  'reschedule_booking',
  'cancel_booking',
  'list_customer_bookings',
  'send_message',
  'hand_off_to_human',
];
const ACCEPT = { Accept: 'application/json, text/event-stream' };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

let number: string;
let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now()}${++seq}`;
let admin: Assistant;
let agent: Assistant;
/** A's service on one resource working 09:00–17:00 UTC, B's likewise. */
let service: { id: string };
let resource: { id: string };
let otherService: { id: string };
const day = dayFromNow(10);

beforeAll(async () => {
  number = String(300_000_000 + Math.floor(Math.random() * 1e8));
  await givenChannel(a.admin, number, 'token-mcp');
  resource = await givenResource(a.admin);
  service = await givenService(a.admin, [resource.id]);
  otherService = await givenService(b.admin, [(await givenResource(b.admin)).id]);
  admin = await connectAssistant(suite.url, { tenantId: a.tenantId, token: a.apiKey });
  agent = await connectAssistant(suite.url, { tenantId: a.tenantId, token: await agentToken(a) });
});
afterAll(closeAssistants);

/** An access token of the tenant's agent (the harness keeps its own inside its REST client). */
function agentToken(t: SuiteTenant): Promise<string> {
  return signAccessToken({ userId: t.agentUserId, tenantId: t.tenantId, role: 'agent' });
}

function routeNamed(operationId: string): AnyTenantRoute {
  const found = routes.find((r) => r.operationId === operationId);
  if (found?.auth !== 'tenant') throw new Error(`no tenant route ${operationId}`);
  return found;
}

/** A contact who just wrote on WhatsApp: their conversation, with the customer service window open. */
async function contactWhoWrote(): Promise<{ phone: string; conversationId: string }> {
  const phone = unique('346');
  const payload = JSON.stringify(
    whatsappPayload(number, { messages: [textMessage(unique('wamid.IN'), phone, 'hi')] }),
  );
  const res = await api('POST', '/channels/whatsapp/webhook', {
    rawBody: payload,
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': hubSignature(payload, APP_SECRET) },
  });
  expect(res.status).toBe(200);
  const conversation = await forTenant(a.tenantId).conversation.findFirstOrThrow({
    where: { contactPhone: phone },
  });
  return { phone, conversationId: conversation.id };
}

/** A raw HTTP request to the endpoint (headers as given), answers checked against the route's contract. */
function post(
  body: unknown,
  options: { tenantId?: string | null; token?: string | null; headers?: Record<string, string> } = {},
) {
  return api('POST', '/mcp', {
    body,
    tenantId: options.tenantId === undefined ? a.tenantId : options.tenantId,
    token: options.token === undefined ? a.apiKey : options.token,
    headers: { ...ACCEPT, ...options.headers },
  });
}

describe('connecting and listing', () => {
  it('connects with the official client (stateless: no session id) and lists the eight tools', async () => {
    expect(admin.client.getServerVersion()).toMatchObject({ name: 'switchboard' });
    expect(admin.client.getInstructions()).toMatch(/find_slots gives the valid start_at/);
    const { tools } = await admin.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(120);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, `${tool.name} answers structured content`).toBe('object');
    }
    const raw = await post(initialize);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('mcp-session-id')).toBeNull();
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('takes the input fields by their REST names, the path id as booking_id or conversation_id', async () => {
    const { tools } = await admin.client.listTools();
    const fields = Object.fromEntries(
      tools.map((t) => [
        t.name,
        { names: Object.keys(t.inputSchema.properties ?? {}), required: t.inputSchema.required },
      ]),
    );
    expect(fields).toEqual({
      find_slots: {
        names: ['service_id', 'start', 'end', 'time_zone', 'resource_id'],
        required: ['service_id', 'start', 'end'],
      },
      book_slot: {
        names: ['service_id', 'start_at', 'resource_id', 'customer', 'hold_expires_at'],
        required: ['customer', 'start_at', 'service_id'],
      },
      reschedule_booking: {
        names: ['booking_id', 'start_at', 'resource_id'],
        required: ['booking_id', 'start_at'],
      },
      cancel_booking: { names: ['booking_id', 'reason'], required: ['booking_id'] },
      list_customer_bookings: { names: ['phone', 'email', 'cursor'], required: [] },
      send_message: {
        names: ['conversation_id', 'text', 'template', 'media'],
        required: ['conversation_id'],
      },
      offer_slots: {
        names: ['conversation_id', 'service_id', 'date', 'days', 'time_zone', 'resource_id', 'booking_id'],
        required: ['conversation_id', 'service_id'],
      },
      hand_off_to_human: {
        names: ['conversation_id', 'reason', 'summary'],
        required: ['conversation_id', 'reason'],
      },
    });
    // Generated from the route's own schema: book_slot's customer is POST /bookings' customer.
    const bookSlot = tools.find((t) => t.name === 'book_slot');
    const rest = jsonSchemaOf(CreateBookingInput, 'input').properties as Record<string, unknown>;
    expect(bookSlot?.inputSchema.properties?.customer).toEqual(rest.customer);
    expect(bookSlot?.inputSchema.additionalProperties).toBe(false);
  });
});

describe('each tool does what its REST twin does', () => {
  it('find_slots answers GET /slots', async () => {
    const args = { service_id: service.id, start: day, end: day, time_zone: 'Europe/Madrid' };
    const slots = await admin.ok('find_slots', args);
    const rest = await a.admin('GET', `/slots?${new URLSearchParams(args)}`);
    expect(slots).toEqual(rest.body);
    expect((slots.days as Record<string, unknown[]>)[day].length).toBeGreaterThan(0);
  });

  it('book_slot creates the booking POST /bookings would, list_customer_bookings finds it by phone or email', async () => {
    const phone = `+3461${String(Date.now()).slice(-7)}`;
    const booked = await admin.ok('book_slot', {
      service_id: service.id,
      start_at: utc(day, '09:00'),
      customer: { name: 'Ada Lovelace', phone, email: 'ada.mcp@example.test' },
    });
    expect(booked).toMatchObject({ status: 'pending', service_id: service.id, resource_id: resource.id });
    expect(booked).toEqual((await a.admin('GET', `/bookings/${booked.id}`)).body);

    const byDigits = await admin.ok('list_customer_bookings', { phone: phone.slice(1) });
    expect((byDigits.data as { id: string }[]).map((x) => x.id)).toEqual([booked.id]);
    const rest = await a.admin('GET', `/bookings?customer_phone=${phone.slice(1)}&limit=100`);
    expect(byDigits).toEqual(rest.body);
    const byEmail = await admin.ok('list_customer_bookings', { email: 'ADA.MCP@example.test' });
    expect((byEmail.data as { id: string }[]).map((x) => x.id)).toContain(booked.id);

    // A hold, as POST /bookings takes it.
    const hold_expires_at = new Date(Date.now() + 3_600_000).toISOString();
    const held = await admin.ok('book_slot', {
      service_id: service.id,
      start_at: utc(day, '12:00'),
      customer: { name: 'Held' },
      hold_expires_at,
    });
    expect(held).toMatchObject({ status: 'pending', hold_expires_at });
  });

  it('reschedule_booking and cancel_booking move and cancel it as their REST twins do', async () => {
    const booking = await admin.ok('book_slot', {
      service_id: service.id,
      start_at: utc(day, '10:00'),
      customer: { name: 'Grace' },
    });
    const moved = await admin.ok('reschedule_booking', {
      booking_id: booking.id,
      start_at: utc(day, '11:00'),
    });
    expect(moved).toMatchObject({ id: booking.id, start_at: utc(day, '11:00'), end_at: utc(day, '12:00') });
    const cancelled = await admin.ok('cancel_booking', { booking_id: booking.id, reason: 'Customer asked' });
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellation_reason: 'Customer asked' });
    expect(cancelled).toEqual((await a.admin('GET', `/bookings/${booking.id}`)).body);
  });

  it('send_message sends on WhatsApp, hand_off_to_human queues the conversation for a person', async () => {
    const { phone, conversationId } = await contactWhoWrote();
    const message = await admin.ok('send_message', {
      conversation_id: conversationId,
      text: 'Tuesday 10:00 works',
    });
    expect(message).toMatchObject({ status: 'sent', direction: 'outbound', text: 'Tuesday 10:00 works' });
    const sent = graph.requests.filter(
      (r) => r.method === 'POST' && (r.body as { to?: string })?.to === phone,
    );
    expect(sent.map((r) => r.body)).toMatchObject([{ type: 'text', text: { body: 'Tuesday 10:00 works' } }]);

    const handed = await agent.ok('hand_off_to_human', {
      conversation_id: conversationId,
      reason: 'Wants a refund',
      summary: 'Booked Tuesday, now asks for a refund of the deposit',
    });
    expect(handed).toMatchObject({ status: 'pending_human', handled_by: 'human' });
    expect(handed).toEqual((await a.admin('GET', `/conversations/${conversationId}`)).body);
  });
});

describe('refusals are tool results (isError) naming the problem code, never protocol errors', () => {
  it('slot_unavailable: the time was taken, nothing is stored', async () => {
    const start_at = utc(day, '13:00');
    await admin.ok('book_slot', { service_id: service.id, start_at, customer: { name: 'First' } });
    const before = await forTenant(a.tenantId).booking.count();
    const problem = await admin.refused('book_slot', {
      service_id: service.id,
      start_at,
      customer: { name: 'Second' },
    });
    expect(problem).toMatchObject({ code: 'slot_unavailable', status: 409 });
    expect(problem.request_id).toBeTruthy();
    expect(await forTenant(a.tenantId).booking.count()).toBe(before);
  });

  it('validation_failed: the same field errors as REST, in the tool’s field names', async () => {
    const body = { service_id: service.id, start_at: 'tomorrow at ten', customer: {} };
    const rest = await a.admin('POST', '/bookings', { body });
    expect(rest.status).toBe(422);
    const problem = await admin.refused('book_slot', body);
    expect(problem).toMatchObject({ code: 'validation_failed', status: 422 });
    expect(problem.errors).toEqual(rest.body.errors);

    expect(
      (await admin.refused('book_slot', { start_at: utc(day, '09:00'), customer: { name: 'X' } })).errors,
    ).toEqual([{ path: 'service_id', message: 'Required' }]);
    expect((await admin.refused('list_customer_bookings', {})).errors).toEqual([
      { path: 'phone', message: 'Send at least one of phone, email' },
    ]);
    expect(
      (await admin.refused('list_customer_bookings', { phone: 'call me' })).errors?.map((e) => e.path),
    ).toEqual(['phone']);
    expect((await admin.refused('cancel_booking', { booking_id: 'bkg_x', notes: 'x' })).errors).toEqual([
      { path: 'notes', message: 'Not a field of cancel_booking' },
    ]);
    expect((await admin.refused('reschedule_booking', { start_at: utc(day, '09:00') })).errors).toEqual([
      { path: 'booking_id', message: 'Required: a non-empty string' },
    ]);
    const send = await admin.refused('send_message', {
      conversation_id: 'cnv_x',
      text: 'a',
      template: { name: 'x', language: 'en' },
    });
    expect(send.errors?.[0]).toMatchObject({
      path: 'template',
      message: 'Send exactly one of text, template or media',
    });
  });

  it('invalid_transition, outside_customer_service_window and an unknown tool', async () => {
    const booking = await givenBooking(a.admin, 'cancelled');
    expect(await admin.refused('cancel_booking', { booking_id: booking.id })).toMatchObject({
      code: 'invalid_transition',
      status: 409,
    });
    const closed = await a.admin('POST', '/conversations', {
      body: {
        channel: 'whatsapp',
        channel_id: (await a.admin('GET', '/channels')).body.data[0].id,
        contact: { phone: '+34600999777' },
      },
    });
    expect(closed.status).toBe(201);
    const stored = await forTenant(a.tenantId).message.count({ where: { conversationId: closed.body.id } });
    expect(
      await admin.refused('send_message', { conversation_id: closed.body.id, text: 'Hi' }),
    ).toMatchObject({
      code: 'outside_customer_service_window',
      status: 422,
    });
    expect(await forTenant(a.tenantId).message.count({ where: { conversationId: closed.body.id } })).toBe(
      stored,
    );
    expect(await admin.refused('delete_everything', {})).toMatchObject({ code: 'not_found', status: 404 });
  });

  describe('roles, as REST has them', () => {
    const cancel = routeNamed('cancelBooking');
    const original = cancel.permission;
    afterEach(() => {
      cancel.permission = original;
    });

    it('forbidden: a tool whose operation the role may not do is refused, and not listed to that role', async () => {
      const booking = await givenBooking(a.admin);
      // Agents may cancel today: give the route a permission agents lack, and both transports follow.
      cancel.permission = 'payments.write';
      const rest = await a.agent('POST', `/bookings/${booking.id}/cancel`, { body: {} });
      expect([rest.status, rest.body.code]).toEqual([403, 'forbidden']);
      expect(await agent.refused('cancel_booking', { booking_id: booking.id })).toMatchObject({
        code: 'forbidden',
        status: 403,
      });
      // Refused before its input is read, as REST answers 403 before 422.
      expect(await agent.refused('cancel_booking', {})).toMatchObject({ code: 'forbidden' });
      const agentTools = (await agent.client.listTools()).tools.map((t) => t.name);
      expect(agentTools).not.toContain('cancel_booking');
      expect(agentTools).toHaveLength(TOOLS.length - 1);
      expect((await admin.client.listTools()).tools.map((t) => t.name)).toContain('cancel_booking');
      expect((await a.admin('GET', `/bookings/${booking.id}`)).body.status).toBe('pending');

      cancel.permission = original;
      expect(await agent.ok('cancel_booking', { booking_id: booking.id })).toMatchObject({
        status: 'cancelled',
      });
    });

    it('an agent without the endpoint’s permission is answered 403 before the protocol', async () => {
      const mcp = routeNamed('sendMcpMessages');
      const before = mcp.permission;
      mcp.permission = 'webhooks.write';
      try {
        const res = await post(initialize, { token: await agentToken(a) });
        expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
      } finally {
        mcp.permission = before;
      }
    });
  });
});

describe('tenant isolation', () => {
  it('nothing of tenant B through A’s key: not_found by id, empty lists, 422 for B’s service', async () => {
    const theirs = await givenBooking(b.admin, 'pending', {
      customer: { name: 'B', phone: '+34699000111', email: 'b@example.test' },
    });
    const theirConversation = await givenConversation(b.admin);
    const before = await eventsOf(b.tenantId);
    for (const [tool, args] of [
      ['cancel_booking', { booking_id: theirs.id }],
      ['reschedule_booking', { booking_id: theirs.id, start_at: utc(day, '09:00') }],
      ['send_message', { conversation_id: theirConversation.id, text: 'hi' }],
      ['hand_off_to_human', { conversation_id: theirConversation.id, reason: 'x' }],
    ] as const) {
      const problem = await admin.refused(tool, args);
      expect([problem.code, problem.status], tool).toEqual(['not_found', 404]);
      expect(JSON.stringify(problem)).not.toContain('b@example.test');
    }
    expect((await admin.ok('list_customer_bookings', { phone: '+34699000111' })).data).toEqual([]);
    expect((await admin.ok('list_customer_bookings', { email: 'b@example.test' })).data).toEqual([]);
    expect(
      await admin.refused('find_slots', { service_id: otherService.id, start: day, end: day }),
    ).toMatchObject({
      code: 'validation_failed',
    });
    expect(
      await admin.refused('book_slot', {
        service_id: otherService.id,
        start_at: utc(day, '09:00'),
        customer: { name: 'X' },
      }),
    ).toMatchObject({
      code: 'validation_failed',
    });
    expect((await b.admin('GET', `/bookings/${theirs.id}`)).body.status).toBe('pending');
    expect(await eventsOf(b.tenantId)).toEqual(before);
  });

  it('B’s key or agent token with A’s tenant header: 403 tenant_mismatch before the protocol', async () => {
    const res = await post(initialize, { token: b.apiKey });
    expect([res.status, res.body.code]).toEqual([403, 'tenant_mismatch']);
    const error = await connectAssistant(suite.url, { tenantId: a.tenantId, token: b.apiKey }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(403);
    const byAgent = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'find_slots', arguments: {} } },
      { token: await agentToken(b) },
    );
    expect([byAgent.status, byAgent.body.code]).toEqual([403, 'tenant_mismatch']);
  });
});

describe('credentials, on every HTTP request, as REST answers them', () => {
  it('missing or bad credentials and tenant headers get the REST problem documents', async () => {
    const cases = [
      { options: { tenantId: null }, status: 400, code: 'tenant_header_missing' },
      { options: { tenantId: 'not-a-uuid' }, status: 400, code: 'tenant_header_invalid' },
      { options: { token: null }, status: 401, code: 'unauthenticated' },
      {
        options: { token: 'sk_live_AAAAAAAAAAAA_0000000000000000000000000000000000000000' },
        status: 401,
        code: 'unauthenticated',
      },
      { options: { token: 'not.a.jwt' }, status: 401, code: 'unauthenticated' },
    ];
    for (const { options, status, code } of cases) {
      const res = await post(initialize, options);
      expect([res.status, res.body.code], JSON.stringify(options)).toEqual([status, code]);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      if (status === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    const error = await connectAssistant(suite.url, {
      tenantId: a.tenantId,
      token: 'sk_live_AAAAAAAAAAAA_0000000000000000000000000000000000000000',
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as StreamableHTTPError).code).toBe(401);
  });

  it('a key revoked between two calls is cut off at once with HTTP 401', async () => {
    const key = await a.admin('POST', '/api-keys', { body: { name: 'assistant' } });
    expect(key.status).toBe(201);
    const assistant = await connectAssistant(suite.url, { tenantId: a.tenantId, token: key.body.key });
    await assistant.ok('find_slots', { service_id: service.id, start: day, end: day });
    expect((await a.admin('DELETE', `/api-keys/${key.body.id}`)).status).toBe(204);
    const error = await assistant.call('find_slots', { service_id: service.id, start: day, end: day }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
    expect((error as Error).message).toMatch(/unauthenticated/);
  });

  it('GET and DELETE answer 405 (stateless: no stream, no session); bodies are checked as on every route', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await api(method, '/mcp', { tenantId: a.tenantId, token: a.apiKey, headers: ACCEPT });
      expect([res.status, res.body.code, res.headers.get('allow')]).toEqual([
        405,
        'method_not_allowed',
        'POST',
      ]);
    }
    const notAcceptable = await post(initialize, { headers: { Accept: 'application/json' } });
    expect([notAcceptable.status, notAcceptable.body.code]).toEqual([406, 'not_acceptable']);
    const notJsonRpc = await post({ hello: 'world' });
    expect([notJsonRpc.status, notJsonRpc.body.code]).toEqual([422, 'validation_failed']);
    const badVersion = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { headers: { 'MCP-Protocol-Version': '1999-01-01' } },
    );
    expect([badVersion.status, badVersion.body.code]).toEqual([400, 'invalid_mcp_request']);
    const text = await api('POST', '/mcp', {
      rawBody: 'x',
      tenantId: a.tenantId,
      token: a.apiKey,
      headers: { ...ACCEPT, 'Content-Type': 'text/plain' },
    });
    expect([text.status, text.body.code]).toEqual([415, 'unsupported_media_type']);
    const invalid = await api('POST', '/mcp', {
      rawBody: '{',
      tenantId: a.tenantId,
      token: a.apiKey,
      headers: { ...ACCEPT, 'Content-Type': 'application/json' },
    });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'invalid_json']);
    const huge = await post({ ...initialize, params: { ...initialize.params, pad: 'x'.repeat(1_100_000) } });
    expect([huge.status, huge.body.code]).toEqual([413, 'payload_too_large']);
    const notification = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect([notification.status, notification.text]).toEqual([202, '']);
  });

  it('counts against the API rate limit, each message of a batch as one request', async () => {
    const key = await a.admin('POST', '/api-keys', { body: { name: 'limited' } });
    Object.assign(process.env, { API_RATE_LIMIT_PER_SECOND: '3' });
    resetSettingsCache();
    try {
      const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
      const batch = await post([list(1), list(2), list(3), list(4)], { token: key.body.key });
      expect([batch.status, batch.body.code]).toEqual([429, 'rate_limited']);
      expect(Number(batch.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      process.env.API_RATE_LIMIT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_SECOND;
      resetSettingsCache();
    }
  });

  it('a failure inside a tool is the request’s 500 or 503, as on REST, not a tool result', async () => {
    const slots = routeNamed('listSlots');
    const handler = slots.handler;
    const args = { service_id: service.id, start: day, end: day };
    const call = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'find_slots', arguments: args },
    };
    try {
      slots.handler = async () => {
        throw new Error('a bug');
      };
      const bug = await post(call);
      expect([bug.status, bug.body.code]).toEqual([500, 'internal_error']);
      expect(bug.text).not.toContain('a bug');
      slots.handler = async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      };
      const outage = await post(call);
      expect([outage.status, outage.body.code]).toEqual([503, 'service_unavailable']);
      expect(outage.headers.get('retry-after')).toBe('5');
    } finally {
      slots.handler = handler;
    }
  });
});

describe('events and audit', () => {
  /** The events about one booking, without what differs between two bookings (ids and times of writing). */
  async function eventShapes(bookingId: string) {
    const envelopes = await eventsOf(a.tenantId, { objectId: bookingId });
    return envelopes.map((e) => {
      // Where each was made differs, by design: `source` is api or assistant.
      const { id: _, created_at: _c, updated_at: _u, source: _s, ...object } = e.data.object;
      return { type: e.type, object, previous: e.data.previous };
    });
  }

  it('a tool call records the very events its REST twin records', async () => {
    const customer = { name: 'Twin', phone: '+34600123123' };
    const viaRest = await a.admin('POST', '/bookings', {
      body: { service_id: service.id, start_at: utc(day, '14:00'), customer },
    });
    expect(viaRest.status).toBe(201);
    await a.admin('POST', `/bookings/${viaRest.body.id}/reschedule`, {
      body: { start_at: utc(day, '15:00') },
    });
    await a.admin('POST', `/bookings/${viaRest.body.id}/cancel`, { body: { reason: 'twin' } });

    const viaTool = await admin.ok('book_slot', {
      service_id: service.id,
      start_at: utc(day, '14:00'),
      customer,
    });
    await admin.ok('reschedule_booking', { booking_id: viaTool.id, start_at: utc(day, '15:00') });
    await admin.ok('cancel_booking', { booking_id: viaTool.id, reason: 'twin' });

    const rest = await eventShapes(viaRest.body.id);
    expect(rest.map((e) => e.type)).toEqual(['booking.created', 'booking.rescheduled', 'booking.cancelled']);
    expect(await eventShapes(viaTool.id as string)).toEqual(rest);
    expect([viaRest.body.source, viaTool.source]).toEqual(['api', 'assistant']);

    const { conversationId } = await contactWhoWrote();
    await admin.ok('hand_off_to_human', { conversation_id: conversationId, reason: 'twin' });
    const handoff = await eventsOf(a.tenantId, {
      type: 'conversation.handoff.requested',
      objectId: conversationId,
    });
    expect(handoff).toHaveLength(1);
  });

  it('records each change with the credential used and the tool’s name; reads and refusals record nothing', async () => {
    const key = await a.admin('POST', '/api-keys', { body: { name: 'audited assistant' } });
    const assistant = await connectAssistant(suite.url, { tenantId: a.tenantId, token: key.body.key });
    const { conversationId } = await contactWhoWrote();

    const auditDay = dayFromNow(11);
    await assistant.ok('find_slots', { service_id: service.id, start: auditDay, end: auditDay });
    const booking = await assistant.ok('book_slot', {
      service_id: service.id,
      start_at: utc(auditDay, '16:00'),
      customer: { name: 'Audit' },
    });
    await assistant.refused('book_slot', {
      service_id: service.id,
      start_at: utc(auditDay, '16:00'),
      customer: { name: 'Again' },
    });
    await assistant.ok('list_customer_bookings', { email: 'nobody@example.test' });
    await assistant.ok('reschedule_booking', { booking_id: booking.id, start_at: utc(auditDay, '09:00') });
    await assistant.ok('cancel_booking', { booking_id: booking.id });
    await assistant.ok('send_message', { conversation_id: conversationId, text: 'Hello' });
    await assistant.ok('hand_off_to_human', { conversation_id: conversationId, reason: 'Audit' });

    const log = await a.admin('GET', `/audit-log?action=assistant.tool_called&actor_id=${key.body.id}`);
    expect(log.status).toBe(200);
    const entries = (log.body.data as { tool: string; target: unknown; actor: unknown }[])
      .map(({ tool, target, actor }) => ({ tool, target, actor }))
      .reverse();
    const actor = { type: 'api_key', id: key.body.id };
    expect(entries).toEqual([
      { tool: 'book_slot', target: { type: 'booking', id: booking.id }, actor },
      { tool: 'reschedule_booking', target: { type: 'booking', id: booking.id }, actor },
      { tool: 'cancel_booking', target: { type: 'booking', id: booking.id }, actor },
      { tool: 'send_message', target: { type: 'conversation', id: conversationId }, actor },
      { tool: 'hand_off_to_human', target: { type: 'conversation', id: conversationId }, actor },
    ]);

    // An agent's token: the person is the actor. The REST twin records no assistant entry.
    const mine = await givenBooking(a.admin);
    await agent.ok('cancel_booking', { booking_id: mine.id });
    const theirs = await a.agent('GET', `/audit-log?action=assistant.tool_called`);
    expect(theirs.status).toBe(403); // agents do not read the audit log; the admin does
    const byAgent = await a.admin('GET', `/audit-log?action=assistant.tool_called&actor_id=${a.agentUserId}`);
    expect(
      byAgent.body.data
        .filter((e: { target: { id: string } }) => e.target.id === mine.id)
        .map((e: { tool: string; actor: unknown }) => [e.tool, e.actor]),
    ).toEqual([['cancel_booking', { type: 'user', id: a.agentUserId }]]);
    const viaRest = await givenBooking(a.admin, 'cancelled');
    const all = await a.admin('GET', '/audit-log?action=assistant.tool_called&limit=100');
    expect(all.body.data.map((e: { target: { id: string } }) => e.target.id)).not.toContain(viaRest.id);
  });
});
