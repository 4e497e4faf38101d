// The whole assistant flow of docs/integrators.md ("Answer your customers with an assistant"), run
// end to end with the host that guide ships (sdk/assistant-host.ts): a customer writes on WhatsApp
// (the signed inbound route, Meta's Graph API stood in on loopback), the delivery worker posts
// conversation.message.received to the host's webhook, the host mints a session with its restricted
// key, and its model (scripted here: it finds a slot, books it and replies) calls the tools through
// the official MCP SDK client with the session token. The reply reaches WhatsApp through the Graph
// stand-in; the model never saw a key.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistantHost, listen, type ModelTurn } from '@/sdk/assistant-host';
import { KEY_PRESETS } from '@/server/client-safe/permissions';
import { pgPool } from '@/server/db/pool';
import { type DeliveryWorker, startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { customerWrites } from '../support/assistant-fixtures';
import { dayFromNow, eventually, givenResource, givenService } from '../support/booking-fixtures';
import { givenChannel } from '../support/builders';
import { apiSuite, fakeGraphSuite } from '../support/harness';
import { rememberSecret } from '../support/log-scan';

const APP_SECRET = 'test-whatsapp-app-secret-host-flow';
const graph = fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });
const suite = apiSuite();
const { api, tenant } = suite;
const day = dayFromNow(9);

let worker: DeliveryWorker;
let server: Server;
let host: ReturnType<typeof createAssistantHost>;
let hostKey: string;
let number: string;
let service: { id: string };
const turns: ModelTurn[] = [];
const modelSaw: string[] = [];

/** The model: it reads the customer's message, finds the first free slot that day, books it and replies. */
async function scriptedModel(turn: ModelTurn): Promise<void> {
  turns.push(turn);
  modelSaw.push(
    JSON.stringify({ instructions: turn.instructions, tools: turn.tools, history: turn.history }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await turn.callTool(name, args);
    expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    return result.structuredContent as Record<string, unknown>;
  };
  const slots = (await call('find_slots', { service_id: service.id, start: day, end: day })) as {
    days: Record<string, { start: string }[]>;
  };
  const [first] = slots.days[day];
  const booked = await call('book_slot', { service_id: service.id, start_at: first.start });
  const { data } = (await call('list_customer_bookings', {})) as { data: { id: string }[] };
  expect(data.map((b) => b.id)).toContain(booked.id);
  await call('send_message', { text: `Booked: ${first.start.slice(11, 16)} UTC on ${day}. See you!` });
}

beforeAll(async () => {
  number = String(600_000_000 + Math.floor(Math.random() * 1e8));
  await givenChannel(tenant.admin, number, 'token-host-flow');
  service = await givenService(tenant.admin, [(await givenResource(tenant.admin)).id]);
  const key = await tenant.admin('POST', '/api-keys', {
    body: { name: 'assistant host', permissions: KEY_PRESETS.assistant.permissions },
  });
  expect(key.status, key.text).toBe(201);
  rememberSecret('API key', key.body.key);
  hostKey = key.body.key;
  // The host's webhook: listening first, so its URL can be registered and its secret handed to it.
  server = await listen({ handle: (request) => host.handle(request), settled: async () => {} }, 0);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/switchboard`;
  const endpoint = await tenant.admin('POST', '/webhooks', {
    body: { url, events: ['conversation.message.received'] },
  });
  expect(endpoint.status, endpoint.text).toBe(201);
  host = createAssistantHost({
    baseUrl: suite.url,
    tenantId: tenant.tenantId,
    apiKey: hostKey,
    webhookSecret: endpoint.body.webhook_secret,
    runModel: scriptedModel,
  });
  worker = await startDeliveryWorker({ pollIntervalMs: 20 });
});
afterAll(async () => {
  await worker?.stop();
  await host?.settled();
  await new Promise((resolve) => server?.close(resolve));
});

describe('an assistant host answers a customer on WhatsApp', () => {
  it('webhook in, session minted with the restricted key, tools called with the session token, reply out on WhatsApp', async () => {
    const customer = await customerWrites(api, {
      tenantId: tenant.tenantId,
      number,
      appSecret: APP_SECRET,
      name: 'Grace',
      text: `Hi! Can I get a check-up on ${day}?`,
    });
    const reply = await eventually(async () => {
      const sent = graph.requests.find(
        (r) => r.method === 'POST' && (r.body as { to?: string } | undefined)?.to === customer.phone,
      );
      expect(sent).toBeDefined();
      return sent?.body as { type: string; text: { body: string } };
    }, 15_000);
    await host.settled();
    expect(reply.type).toBe('text');
    expect(reply.text.body).toMatch(new RegExp(`^Booked: 09:00 UTC on ${day}`));

    // One turn, with the customer's message as the last of its history and the session's toolbox.
    expect(turns).toHaveLength(1);
    expect(turns[0].history.at(-1)).toEqual({
      from: 'customer',
      text: `Hi! Can I get a check-up on ${day}?`,
    });
    expect(turns[0].tools.map((t) => t.name)).toContain('book_slot');
    for (const tool of turns[0].tools)
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('conversation_id');

    // The booking is the customer's, made by the session; the session was ended after the turn.
    const { rows: bookings } = await pgPool().query(
      `select customer_name, customer_phone, status from bookings where tenant_id = $1 and service_id = $2`,
      [tenant.tenantId, service.id],
    );
    expect(bookings).toEqual([
      { customer_name: 'Grace', customer_phone: `+${customer.phone}`, status: 'pending' },
    ]);
    const { rows: sessions } = await pgPool().query(
      `select id, revoked_at from assistant_sessions where tenant_id = $1 and conversation_id = $2`,
      [tenant.tenantId, customer.conversationId],
    );
    expect(sessions).toHaveLength(1);
    expect(sessions[0].revoked_at).not.toBeNull();
    const log = await tenant.admin('GET', `/audit-log?actor_id=${sessions[0].id}`);
    expect(log.body.data.map((e: { tool: string }) => e.tool).reverse()).toEqual([
      'find_slots',
      'book_slot',
      'list_customer_bookings',
      'send_message',
    ]);

    // The model was never given a credential.
    for (const seen of modelSaw) {
      expect(seen).not.toContain(hostKey);
      expect(seen).not.toMatch(/ast_[0-9A-Za-z]{12}_/);
      expect(seen).not.toMatch(/sk_live_/);
    }
  });

  it('the host’s key itself cannot book, cancel or connect Stripe: only mint sessions and read', async () => {
    const as = { tenantId: tenant.tenantId, token: hostKey };
    for (const [method, path, body] of [
      [
        'POST',
        '/bookings',
        { service_id: service.id, start_at: `${day}T10:00:00.000Z`, customer: { name: 'X' } },
      ],
      ['PUT', '/payment-providers/stripe', { secret_key: 'sk_test_x', webhook_secret: 'whsec_x' }],
      ['POST', '/api-keys', { name: 'escalate' }],
      ['POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ] as const) {
      const res = await api(method, path, {
        ...as,
        body,
        headers: { Accept: 'application/json, text/event-stream' },
      });
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([403, 'forbidden']);
    }
    expect((await api('GET', '/services', as)).status).toBe(200);
  });

  it('refuses a delivery that is not signed by Switchboard', async () => {
    const forged = await host.handle(
      new Request('http://host/webhooks', {
        method: 'POST',
        headers: {
          'webhook-id': 'evt_x',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,AAAA',
        },
        body: '{}',
      }),
    );
    expect(forged.status).toBe(401);
  });
});
