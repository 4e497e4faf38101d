// Regression tests for the security audit's findings (README "Hostile input"): each failed on the code
// before its fix.
import { randomUUID } from 'node:crypto';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Session } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { db } from '@/server/db/client';
import { createUser } from '@/server/domain/tenants';
import { newId } from '@/server/lib/ids';
import { authOptions } from '@/server/trpc/auth-options';
import { viewerFromSession } from '@/server/trpc/membership';
import { appRouter } from '@/server/trpc/root';
import { hubSignature } from '@/server/whatsapp/signature';
import { expectProblemCode } from './domain-fixtures';
import { textMessage, whatsappPayload } from './fake-graph';
import { apiSuite, fakeGraphSuite } from './harness';
import { client } from './helpers';

const suite = apiSuite();
const a = suite.tenant;

async function adminSession(tenantId: string) {
  const email = `admin-${randomUUID()}@example.test`;
  const password = 'a long enough password';
  await createUser({ tenantId, email, password, role: 'admin' });
  const login = await client(suite.url)('POST', '/auth/login', { body: { email, password } });
  expect(login.status).toBe(200);
  return client(suite.url, { tenantId, token: login.body.access_token });
}

describe('Idempotency-Key and one-time secrets (finding 1)', () => {
  const secretRequests = [
    { name: 'API key create', path: '/api-keys', body: { name: 'k' }, secret: 'key' },
    {
      name: 'webhook create',
      path: '/webhooks',
      body: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
      secret: 'webhook_secret',
    },
  ];

  it.each(secretRequests)('never stores the $name answer in plaintext', async ({ path, body, secret }) => {
    const key = randomUUID();
    const first = await a.admin('POST', path, { body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    const stored = await db().idempotencyKey.findUniqueOrThrow({
      where: { tenantId_key: { tenantId: a.tenantId, key } },
    });
    expect(stored.responseBody).not.toContain(first.body[secret]);
    expect(stored.responseBody).not.toContain('"id"');
  });

  it.each(secretRequests)(
    'replays the $name secret to the same credential only; another gets 409',
    async ({ path, body, secret }) => {
      const key = randomUUID();
      const headers = { 'Idempotency-Key': key };
      const first = await a.admin('POST', path, { body, headers });
      const again = await a.admin('POST', path, { body, headers });
      expect(again.status).toBe(201);
      expect(again.body[secret]).toBe(first.body[secret]);
      const otherAdmin = await adminSession(a.tenantId);
      const stolen = await otherAdmin('POST', path, { body, headers });
      expectProblemCode(stolen, 409, 'idempotency_key_reused');
      expect(stolen.text).not.toContain(first.body[secret]);
    },
  );

  it('refuses the replay of a rotated key to another credential, even after the first key is revoked', async () => {
    const created = await a.admin('POST', '/api-keys', { body: { name: 'to rotate' } });
    const key = randomUUID();
    const rotated = await a.admin('POST', `/api-keys/${created.body.id}/rotate`, {
      body: {},
      headers: { 'Idempotency-Key': key },
    });
    expect(rotated.status).toBe(201);
    const otherAdmin = await adminSession(a.tenantId);
    const stolen = await otherAdmin('POST', `/api-keys/${created.body.id}/rotate`, {
      body: {},
      headers: { 'Idempotency-Key': key },
    });
    expectProblemCode(stolen, 409, 'idempotency_key_reused');
  });

  it('still replays answers without a secret to any credential of the tenant', async () => {
    const key = randomUUID();
    const body = {
      customer: { name: 'Shared' },
      start_at: '2026-12-01T09:00:00Z',
      end_at: '2026-12-01T10:00:00Z',
    };
    const first = await a.admin('POST', '/bookings', { body, headers: { 'Idempotency-Key': key } });
    const otherAdmin = await adminSession(a.tenantId);
    const replay = await otherAdmin('POST', '/bookings', { body, headers: { 'Idempotency-Key': key } });
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
  });
});

describe('NUL characters and reserved keys (findings 4 and 5)', () => {
  const booking = (extra: object = {}) => ({
    customer: { name: 'Nul Tester' },
    start_at: '2026-12-01T09:00:00Z',
    end_at: '2026-12-01T10:00:00Z',
    ...extra,
  });

  it('answers 422 naming the field for a NUL in a body, and stores nothing', async () => {
    const before = await db().booking.count({ where: { tenantId: a.tenantId } });
    const res = await a.admin('POST', '/bookings', { body: booking({ customer: { name: 'Ada\u0000' } }) });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'customer.name' })]);
    const inKey = await a.admin('POST', '/bookings', { body: booking({ metadata: { 'a\u0000': 1 } }) });
    expectProblemCode(inKey, 422, 'validation_failed');
    const login = await client(suite.url)('POST', '/auth/login', {
      body: { email: 'x@example.test', password: 'pw\u0000' },
    });
    expectProblemCode(login, 422, 'validation_failed');
    expect(await db().booking.count({ where: { tenantId: a.tenantId } })).toBe(before);
  });

  it('answers 422 for %00 in a query and 404 for %00 in a path id', async () => {
    expectProblemCode(
      await a.admin('GET', '/bookings?customer_email=a%00b@example.test'),
      422,
      'validation_failed',
    );
    expectProblemCode(await a.admin('GET', '/bookings?cursor=%00'), 422, 'validation_failed');
    expectProblemCode(await a.admin('GET', '/bookings/bkg_%00'), 404, 'not_found');
    expectProblemCode(await a.admin('POST', '/bookings/bkg_%00/confirm'), 404, 'not_found');
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuses the metadata key %s, at any depth',
    async (key) => {
      const raw = (metadata: string) => ({
        rawBody: `{"customer":{"name":"N"},"start_at":"2026-12-01T09:00:00Z","end_at":"2026-12-01T10:00:00Z","metadata":${metadata}}`,
        headers: { 'Content-Type': 'application/json' },
      });
      const top = await a.admin('POST', '/bookings', raw(`{"${key}":{"x":1}}`));
      expectProblemCode(top, 422, 'validation_failed');
      expect(top.body.errors[0].path).toBe(`metadata.${key}`);
      const nested = await a.admin('POST', '/bookings', raw(`{"deep":{"${key}":1}}`));
      expectProblemCode(nested, 422, 'validation_failed');
      expect(nested.body.errors[0].path).toBe(`metadata.deep.${key}`);
    },
  );
});

describe('WhatsApp: NUL in inbound text, and claiming a number (findings 4 and 9)', () => {
  const APP_SECRET = 'hardening-app-secret';
  const number = String(300_000_000 + Math.floor(Math.random() * 1e8));
  const graph = fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });

  it('refuses a number whose access token the Graph API does not accept, and claims nothing', async () => {
    graph.rejectToken('made-up-token');
    const res = await a.admin('POST', '/channels', {
      body: { type: 'whatsapp', phone_number_id: number, access_token: 'made-up-token' },
    });
    expectProblemCode(res, 422, 'channel_verification_failed');
    expect(res.body.errors[0].path).toBe('access_token');
    expect(await db().channel.count({ where: { phoneNumberId: number } })).toBe(0);
    const asked = graph.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${number}`));
    expect(asked.map((r) => r.authorization)).toEqual(['Bearer made-up-token']);
  });

  it('claims the number with a token the Graph API accepts', async () => {
    const res = await a.admin('POST', '/channels', {
      body: { type: 'whatsapp', phone_number_id: number, access_token: 'real-token' },
    });
    expect(res.status).toBe(201);
  });

  it('stores an inbound message holding NUL (as U+FFFD) and acknowledges it with 200', async () => {
    const payload = whatsappPayload(number, {
      messages: [textMessage(`wamid.NUL${number}`, '4915100000001', 'hi\u0000there')],
    });
    const raw = JSON.stringify(payload);
    const res = await client(suite.url)('POST', '/channels/whatsapp/webhook', {
      rawBody: raw,
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': hubSignature(raw, APP_SECRET) },
    });
    expect(res.status).toBe(200);
    expect(res.body.received).toBe(1);
    const stored = await db().message.findFirst({
      where: { tenantId: a.tenantId, text: { contains: 'there' } },
    });
    expect(stored?.text).toBe('hi\uFFFDthere');
  });
});

describe('refresh tokens under a race (finding 2)', () => {
  it('gives exactly one 200 to two parallel refreshes, and the reuse revokes the winner too, every time', async () => {
    const email = `racer-${randomUUID()}@example.test`;
    const password = 'a long enough password';
    await createUser({ tenantId: a.tenantId, email, password, role: 'agent' });
    const anon = client(suite.url);
    for (let round = 0; round < 30; round++) {
      const login = await anon('POST', '/auth/login', { body: { email, password } });
      const token = login.body.refresh_token;
      const [x, y] = await Promise.all([
        anon('POST', '/auth/refresh', { body: { refresh_token: token } }),
        anon('POST', '/auth/refresh', { body: { refresh_token: token } }),
      ]);
      expect([x.status, y.status].sort()).toEqual([200, 401]);
      const winner = x.status === 200 ? x : y;
      const next = await anon('POST', '/auth/refresh', {
        body: { refresh_token: winner.body.refresh_token },
      });
      expect(next.status, `round ${round}: the winner's new refresh token must be revoked`).toBe(401);
    }
  });
});

describe('access tokens follow the membership (finding 8)', () => {
  it('stops working once the membership is removed, and follows a role change', async () => {
    const email = `member-${randomUUID()}@example.test`;
    const password = 'a long enough password';
    const { userId } = await createUser({ tenantId: a.tenantId, email, password, role: 'admin' });
    const login = await client(suite.url)('POST', '/auth/login', { body: { email, password } });
    const api = client(suite.url, { tenantId: a.tenantId, token: login.body.access_token });
    expect((await api('GET', '/api-keys')).status).toBe(200);

    const membership = { tenantId_userId: { tenantId: a.tenantId, userId } };
    await db().membership.update({ where: membership, data: { role: 'agent' } });
    expectProblemCode(await api('GET', '/api-keys'), 403, 'forbidden');
    expect((await api('GET', '/bookings')).status).toBe(200);

    await db().membership.delete({ where: membership });
    expectProblemCode(await api('GET', '/bookings'), 401, 'unauthenticated');
  });
});

describe('security headers (finding 10)', () => {
  it('sends nosniff, a referrer policy and no-framing on every REST answer', async () => {
    for (const res of [
      await a.admin('GET', '/bookings'),
      await a.admin('GET', '/nope'),
      await client(suite.url)('GET', '/openapi.json'),
    ]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    }
  });
});

describe('dashboard sessions (findings 5, 6 and 11)', () => {
  async function signedIn() {
    const options = authOptions();
    const token = (await options.callbacks!.jwt!({
      token: {} as JWT,
      user: {
        id: a.adminUserId,
        email: a.adminEmail,
        name: 'Admin',
        tenantId: a.tenantId,
        role: 'admin',
      } as never,
      account: null,
    })) as JWT;
    const session = (await options.callbacks!.session!({
      session: { user: { id: a.adminUserId, email: a.adminEmail, name: 'Admin' }, expires: '' } as never,
      token,
    } as never)) as Session;
    return { options, token, session };
  }

  it('ends the session on the server when signing out: the same cookie no longer signs in', async () => {
    const { options, token, session } = await signedIn();
    expect(await viewerFromSession(session)).toMatchObject({ userId: a.adminUserId, tenantId: a.tenantId });
    await options.events!.signOut!({ token, session } as never);
    expect(await viewerFromSession(session)).toBeNull();
    // A cookie naming no server-side session at all (forged, or from before) is signed out too.
    expect(await viewerFromSession({ ...session, sid: undefined })).toBeNull();
  });

  it('makes the session cookie Secure when the dashboard is served over https (AUTH_URL)', () => {
    const before = process.env.AUTH_URL;
    try {
      process.env.AUTH_URL = 'https://dashboard.example.com';
      resetSettingsCache();
      expect(authOptions().useSecureCookies).toBe(true);
      process.env.AUTH_URL = 'http://localhost:3000';
      resetSettingsCache();
      expect(authOptions().useSecureCookies).toBe(false);
    } finally {
      if (before === undefined) delete process.env.AUTH_URL;
      else process.env.AUTH_URL = before;
      resetSettingsCache();
    }
  });

  it('serves dashboard lists over HTTP whatever keys stored metadata holds, and refuses NUL in tRPC input', async () => {
    await db().booking.create({
      data: {
        id: newId('booking'),
        tenantId: a.tenantId,
        customerName: 'Stored before the rule',
        startAt: new Date('2026-12-01T09:00:00Z'),
        endAt: new Date('2026-12-01T10:00:00Z'),
        metadata: JSON.parse('{"constructor":1,"prototype":{"x":1},"__proto__":{"y":2}}'),
      },
    });
    const { session } = await signedIn();
    const viewer = await viewerFromSession(session);
    const call = (path: string, init: RequestInit) =>
      fetchRequestHandler({
        endpoint: '/api/trpc',
        req: new Request(`http://localhost/api/trpc/${path}`, init),
        router: appRouter,
        createContext: async () => ({ viewer }),
      });
    const list = await call(`bookings.listBookings?input=${encodeURIComponent('{}')}`, { method: 'GET' });
    expect(list.status).toBe(200);
    const names = ((await list.json()) as { result: { data: { data: { customer: { name: string } }[] } } })
      .result.data.data;
    expect(names.map((b) => b.customer.name)).toContain('Stored before the rule');

    const nul = await call('webhooks.createWebhookEndpoint', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['*'], description: 'a\u0000b' }),
    });
    expect(nul.status).toBe(422);
    const body = (await nul.json()) as {
      error: { data: { apiCode: string; fieldErrors: { path: string }[] } };
    };
    expect(body.error.data.apiCode).toBe('validation_failed');
    expect(body.error.data.fieldErrors[0].path).toBe('description');
  });
});
