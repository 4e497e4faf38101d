// No answer grows without bound, however large what it lists (contract §21): GET /slots of a service of
// 100 resources open 24 h on a 5-minute grid over 31 days (8,928 starts × 100 resource ids, about
// 30 MB as it was) answers within 5 s with at most 1 MiB, the earliest slots and truncated: true; the
// assistant's find_slots answers at most 64 KiB (its text and its structured content together), the
// earliest again; a JSON-RPC batch is capped and its tool calls run one after the other; tRPC calls
// count against the caller's API rate limit as REST requests do; a resource's schedule of 62 days with
// 2,000 bookings carrying 5,000-character notes and 8 KiB of metadata stays within 1 MiB; a customer's
// bookings through list_customer_bookings come a shorter page at a time.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@/server/api/routes';
import { startWebSession } from '@/server/auth/web-sessions';
import { resetSettingsCache } from '@/server/config/settings';
import { directDatabaseUrl } from '@/server/db/client';
import { resetApiRateLimitLeases } from '@/server/http/api-rate-limit';
import type { AnyTenantRoute } from '@/server/http/route';
import { MAX_MCP_BATCH } from '@/server/mcp/messages';
import { MAX_RESULT_BYTES } from '@/server/mcp/tool';
import { handleTrpcRequest } from '@/server/trpc/http-handler';
import { viewerFromSession } from '@/server/trpc/membership';
import { dayFromNow, everyDay, givenResource, givenService } from '../support/booking-fixtures';
import { TEST_ENV } from '../support/env';
import { apiSuite } from '../support/harness';
import { closeAssistants, connectAssistant } from '../support/mcp-client';

const suite = apiSuite();
const { api, tenant } = suite;
const MiB = 1024 * 1024;
const RESOURCES = 100;
const first = dayFromNow(2);
const last = dayFromNow(32); // 31 days
let sql: pg.Client;
let service: { id: string };
let resourceIds: string[];

beforeAll(async () => {
  sql = new pg.Client({ connectionString: directDatabaseUrl() });
  await sql.connect();
  resourceIds = [];
  for (let i = 0; i < RESOURCES; i++) {
    const r = await givenResource(tenant.admin, {
      name: `Chair ${i}`,
      weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]),
    });
    resourceIds.push(r.id);
  }
  service = await givenService(tenant.admin, resourceIds, { duration_minutes: 5, slot_interval_minutes: 5 });
});
afterAll(async () => {
  await closeAssistants();
  await sql.end();
});

const ACCEPT = { Accept: 'application/json, text/event-stream' };
const findSlots = (id: number, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'find_slots', arguments: args },
});
const mcp = (body: unknown) =>
  api('POST', '/mcp', { body, tenantId: tenant.tenantId, token: tenant.apiKey, headers: ACCEPT });

function routeNamed(operationId: string): AnyTenantRoute {
  const found = routes.find((r) => r.operationId === operationId);
  if (found?.auth !== 'tenant') throw new Error(`no tenant route ${operationId}`);
  return found;
}

type Slot = { start: string; end: string; resource_ids: string[] };
type Days = Record<string, Slot[]>;
/** Every slot of an answer, in order. */
const slotsOf = (days: Days) => Object.values(days).flat();

describe('security finding 1: slot answers grow without bound, and MCP and tRPC amplify them', () => {
  it('GET /slots for 100 resources × 24 h × a 5-minute grid × 31 days: within 5 s, at most 1 MiB, the earliest slots, truncated', async () => {
    const started = Date.now();
    const res = await tenant.admin(
      'GET',
      `/slots?service_id=${service.id}&start=${first}&end=${last}&time_zone=UTC`,
    );
    const took = Date.now() - started;
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(took).toBeLessThan(5_000);
    expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(MiB);
    expect(res.body.truncated).toBe(true);
    // The earliest: from the first date's midnight on, every 5 minutes, each with every resource, dates
    // in order with no gap; only the last date listed may be incomplete.
    const dates = Object.keys(res.body.days);
    expect(dates[0]).toBe(first);
    expect(dates.length).toBeLessThan(31);
    for (const [i, date] of dates.entries()) {
      expect(date).toBe(
        new Date(Date.parse(`${first}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
      );
      if (i < dates.length - 1) expect(res.body.days[date]).toHaveLength(288);
    }
    const slots = slotsOf(res.body.days);
    expect(slots.length).toBeGreaterThan(200);
    slots.forEach((slot, i) => {
      expect(slot.start).toBe(new Date(Date.parse(`${first}T00:00:00Z`) + i * 300_000).toISOString());
      expect(slot.resource_ids).toEqual(resourceIds);
    });
    // A range whose free slots fit is whole, and says so.
    const one = await tenant.admin(
      'GET',
      `/slots?service_id=${service.id}&start=${first}&end=${first}&time_zone=UTC&resource_id=${resourceIds[7]}`,
    );
    expect(one.body.truncated).toBe(false);
    expect(one.body.days[first]).toHaveLength(288);
  });

  it('find_slots answers at most 64 KiB (text and structured content together): the earliest slots, truncated', async () => {
    const assistant = await connectAssistant(suite.url, { tenantId: tenant.tenantId, token: tenant.apiKey });
    const result = await assistant.call('find_slots', { service_id: service.id, start: first, end: last });
    expect(result.isError).toBeFalsy();
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    const answer = result.structuredContent as { truncated: boolean; days: Days };
    expect(answer.truncated).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(answer);
    const slots = slotsOf(answer.days);
    expect(slots.length).toBeGreaterThan(5);
    expect(slots[0].start).toBe(`${first}T00:00:00.000Z`);
    slots.forEach((slot, i) => {
      expect(slot.start).toBe(new Date(Date.parse(`${first}T00:00:00Z`) + i * 300_000).toISOString());
    });
  });

  it(`a JSON-RPC batch holds at most ${MAX_MCP_BATCH} messages, and its tool calls run one after the other`, async () => {
    const args = { service_id: service.id, start: first, end: first, resource_id: resourceIds[0] };
    const tooMany = await mcp(Array.from({ length: MAX_MCP_BATCH + 1 }, (_, i) => findSlots(i + 1, args)));
    expect([tooMany.status, tooMany.body.code]).toEqual([422, 'validation_failed']);

    const slots = routeNamed('listSlots');
    const handler = slots.handler;
    let running = 0;
    let most = 0;
    try {
      slots.handler = async (input) => {
        most = Math.max(most, ++running);
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return await handler(input);
        } finally {
          running--;
        }
      };
      const batch = await mcp(Array.from({ length: MAX_MCP_BATCH }, (_, i) => findSlots(i + 1, args)));
      expect(batch.status, batch.text.slice(0, 300)).toBe(200);
      expect(batch.body).toHaveLength(MAX_MCP_BATCH);
      for (const answer of batch.body) expect(answer.result.isError).toBeFalsy();
      expect(most).toBe(1);
    } finally {
      slots.handler = handler;
    }
  });

  it('tRPC calls count against the caller’s API rate limit like REST: 429 in tRPC’s shape, with Retry-After', async () => {
    const viewer = await viewerFromSession({
      user: { id: tenant.adminUserId, email: tenant.adminEmail, name: 'Admin' },
      tenantId: tenant.tenantId,
      sid: await startWebSession(tenant.adminUserId),
    });
    const context = async () => ({ viewer, requestId: 'req_rate', clientAddress: '203.0.113.7' });
    Object.assign(process.env, { API_RATE_LIMIT_PER_SECOND: '3' });
    resetSettingsCache();
    resetApiRateLimitLeases();
    try {
      const calls = 8;
      const input = encodeURIComponent(
        JSON.stringify(Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { limit: 1 }]))),
      );
      const path = Array.from({ length: calls }, () => 'resources.listResources').join(',');
      const res = await handleTrpcRequest(
        new Request(`http://dashboard.test/api/trpc/${path}?batch=1&input=${input}`),
        context,
      );
      const answers = (await res.json()) as { result?: unknown; error?: { data: Record<string, unknown> } }[];
      const refused = answers.filter((a) => a.error);
      expect(answers.filter((a) => a.result).length).toBeLessThanOrEqual(3);
      expect(refused.length).toBeGreaterThanOrEqual(calls - 3);
      for (const r of refused) {
        expect(r.error?.data).toMatchObject({
          code: 'TOO_MANY_REQUESTS',
          httpStatus: 429,
          apiCode: 'rate_limited',
        });
      }
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      process.env.API_RATE_LIMIT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_SECOND;
      resetSettingsCache();
      resetApiRateLimitLeases();
    }
  });

  it('a schedule of 62 days with 2,000 bookings of 5,000-character notes and 8 KiB metadata: at most 1 MiB, truncated', async () => {
    const resource = resourceIds[0];
    const from = new Date(`${dayFromNow(40)}T00:00:00.000Z`);
    // 2,000 bookings 40 minutes apart (about 31 a day), each with its notes and metadata at their limits.
    await sql.query(
      `insert into bookings (id, tenant_id, status, customer_name, service, service_id, resource_id, notes,
         metadata, start_at, end_at, blocked_from, blocked_until, updated_at)
       select 'bkg_' || lpad(n::text, 26, '0'), $1::uuid, 'confirmed', 'Customer ' || n, 'Chair', $2, $3,
         repeat('n', 5000), jsonb_build_object('blob', repeat('m', 8000)),
         s, s + interval '5 minutes', s, s + interval '5 minutes', now()
       from generate_series(1, 2000) n, lateral (select $4::timestamptz + n * interval '40 minutes' as s) t`,
      [tenant.tenantId, service.id, resource, from.toISOString()],
    );
    const to = new Date(from.getTime() + 62 * 86_400_000);
    const res = await tenant.admin(
      'GET',
      `/resources/${resource}/schedule?from=${from.toISOString()}&to=${to.toISOString()}`,
    );
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(MiB);
    expect(res.body.truncated).toBe(true);
    const starts = res.body.bookings.map((b: { start_at: string }) => b.start_at);
    expect(starts.length).toBeGreaterThan(20);
    // The earliest, in order.
    starts.forEach((start: string, i: number) => {
      expect(start).toBe(new Date(from.getTime() + (i + 1) * 40 * 60_000).toISOString());
    });
    // A window that holds few of them is whole.
    const day = await tenant.admin(
      'GET',
      `/resources/${resource}/schedule?from=${from.toISOString()}&to=${new Date(from.getTime() + 3 * 3_600_000).toISOString()}`,
    );
    expect([day.body.truncated, day.body.bookings.length]).toEqual([false, 4]);
  });

  it('list_customer_bookings answers at most 64 KiB a page, and its cursor goes on to the rest', async () => {
    const phone = '+34600999888';
    await sql.query(
      `insert into bookings (id, tenant_id, status, customer_name, customer_phone, service, notes, start_at,
         end_at, updated_at)
       select 'bkg_' || lpad((100000 + n)::text, 26, '0'), $1::uuid, 'confirmed', 'Repeat customer', $2, 'Visit',
         repeat('n', 5000), now() + n * interval '1 day', now() + n * interval '1 day' + interval '1 hour', now()
       from generate_series(1, 100) n`,
      [tenant.tenantId, phone],
    );
    const assistant = await connectAssistant(suite.url, { tenantId: tenant.tenantId, token: tenant.apiKey });
    const seen = new Set<string>();
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const result = await assistant.call('list_customer_bookings', {
        phone,
        ...(cursor ? { cursor } : {}),
      });
      expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      const page = result.structuredContent as { data: { id: string }[]; next_cursor: string | null };
      for (const b of page.data) {
        expect(seen.has(b.id)).toBe(false);
        seen.add(b.id);
      }
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 50);
    expect(seen.size).toBe(100);
    expect(pages).toBeGreaterThan(1);
  });
});
