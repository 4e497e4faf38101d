import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { JWT } from 'next-auth/jwt';
import type { CredentialsConfig } from 'next-auth/providers/credentials';
import { beforeAll, describe, expect, it } from 'vitest';
import { login } from '@/server/auth/sessions';
import { startWebSession } from '@/server/auth/web-sessions';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { AppError } from '@/server/lib/errors';
import { authOptions } from '@/server/trpc/auth-options';
import { viewerFromSession } from '@/server/trpc/membership';
import { appRouter, createCaller } from '@/server/trpc/root';
import { createTestTenant, createTestUser, type TestTenant } from '../support/helpers';

let a: TestTenant;
let b: TestTenant;
let agentA: { userId: string; email: string; password: string };

beforeAll(async () => {
  [a, b] = await Promise.all([createTestTenant('A'), createTestTenant('B')]);
  agentA = await createTestUser(a.tenantId, 'agent');
});

/** A tRPC caller as the dashboard would build it from a session cookie claiming `tenantId`. */
async function callerFor(userId: string, tenantId: string | null) {
  const viewer = await viewerFromSession({
    user: { id: userId, email: 'x@example.test', name: 'X' },
    tenantId,
    sid: await startWebSession(userId),
  });
  return createCaller({ viewer });
}

async function trpcError(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

function newBooking(tenant: TestTenant) {
  const start = new Date(Date.now() + 86_400_000);
  return createBooking(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
    customer: { name: 'Ada Lovelace', email: 'ada@example.test' },
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 1_800_000).toISOString(),
  });
}

describe('context: the tenant comes from the membership row, not the cookie', () => {
  it('refuses a signed-out caller with UNAUTHORIZED', async () => {
    const caller = createCaller({ viewer: null });
    expect((await trpcError(caller.bookings.listBookings({}))).code).toBe('UNAUTHORIZED');
  });

  it('refuses a session that claims a tenant the user does not belong to', async () => {
    const caller = await callerFor(a.adminUserId, b.tenantId);
    expect((await trpcError(caller.bookings.listBookings({}))).code).toBe('FORBIDDEN');
    expect((await trpcError(caller.apiKeys.listApiKeys({}))).code).toBe('FORBIDDEN');
  });

  it(
    'takes the role from the database: ' + 'an agent cannot manage keys or webhooks but sees bookings',
    async () => {
      const caller = await callerFor(agentA.userId, a.tenantId);
      expect((await trpcError(caller.apiKeys.listApiKeys({}))).code).toBe('FORBIDDEN');
      expect((await trpcError(caller.apiKeys.createApiKey({ name: 'nope' }))).code).toBe('FORBIDDEN');
      expect((await trpcError(caller.webhooks.listWebhookEndpoints({}))).code).toBe('FORBIDDEN');
      expect((await trpcError(caller.webhooks.listDeliveries({ status: 'failed' }))).code).toBe('FORBIDDEN');
      const booking = await newBooking(a);
      const list = await caller.bookings.listBookings({});
      expect(list.data.map((x) => x.id)).toContain(booking.id);
    },
  );
});

describe('apiKeys router', () => {
  it('creates (secret once), lists, rotates with grace and revokes', async () => {
    const caller = await callerFor(a.adminUserId, a.tenantId);
    const created = await caller.apiKeys.createApiKey({ name: 'Widget' });
    expect(created.key).toMatch(/^sk_live_/);
    const listed = await caller.apiKeys.listApiKeys({});
    const row = listed.data.find((k) => k.id === created.id);
    expect(row).toMatchObject({ name: 'Widget', prefix: created.prefix });
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const rotated = await caller.apiKeys.rotateApiKey({ id: created.id, grace_seconds: 3600 });
    expect(rotated.key).not.toBe(created.key);
    expect(new Date(rotated.replaced_key.revokes_at).getTime()).toBeGreaterThan(Date.now() + 3_500_000);

    await caller.apiKeys.revokeApiKey({ id: rotated.id });
    const after = await caller.apiKeys.listApiKeys({});
    expect(after.data.map((k) => k.id)).not.toContain(rotated.id);
    expect((await trpcError(caller.apiKeys.revokeApiKey({ id: rotated.id }))).code).toBe('NOT_FOUND');
  });

  it('cannot touch another tenant’s key (NOT_FOUND)', async () => {
    const own = await (await callerFor(a.adminUserId, a.tenantId)).apiKeys.createApiKey({ name: 'A key' });
    const other = await callerFor(b.adminUserId, b.tenantId);
    expect((await trpcError(other.apiKeys.revokeApiKey({ id: own.id }))).code).toBe('NOT_FOUND');
  });
});

describe('domain errors map to tRPC codes in one place', () => {
  it('maps invalid_transition to CONFLICT and keeps the API code', async () => {
    const caller = await callerFor(agentA.userId, a.tenantId);
    const booking = await newBooking(a);
    await caller.bookings.cancelBooking({ id: booking.id, reason: 'Customer called' });
    const error = await trpcError(caller.bookings.confirmBooking({ id: booking.id }));
    expect(error.code).toBe('CONFLICT');
    expect(error.cause).toBeInstanceOf(AppError);
    expect((error.cause as AppError).code).toBe('invalid_transition');
  });

  it('answers over HTTP with the flattened zod errors and the API code', async () => {
    const viewer = await viewerFromSession({
      user: { id: a.adminUserId },
      tenantId: a.tenantId,
      sid: await startWebSession(a.adminUserId),
    });
    const call = async (path: string, input: unknown) => {
      const request = new Request(`http://localhost/api/trpc/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      const response = await fetchRequestHandler({
        endpoint: '/api/trpc',
        req: request,
        router: appRouter,
        createContext: async () => ({ viewer }),
      });
      const raw = (await response.json()) as { error: { message: string; data: Record<string, unknown> } };
      const error = raw.error;
      return { status: response.status, body: { error } };
    };

    const invalid = await call('webhooks.createWebhookEndpoint', {
      url: 'https://example.com/hook',
      events: ['nope.*'],
    });
    // Validated by the route's own schema, as REST validates it: 422 validation_failed.
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.data.apiCode).toBe('validation_failed');
    const fields = invalid.body.error.data.fieldErrors as { path: string; message: string }[];
    expect(fields.map((f) => f.path)).toEqual([expect.stringMatching(/^events/)]);
    expect(invalid.body.error.data.stack).toBeUndefined();

    const missing = await call('webhooks.rotateWebhookSecret', { id: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.data.apiCode).toBe('not_found');
  });
});

describe('webhooks router', () => {
  it('creates an endpoint (secret once), edits, disables, and keeps tenants apart', async () => {
    const caller = await callerFor(a.adminUserId, a.tenantId);
    const created = await caller.webhooks.createWebhookEndpoint({
      url: 'http://127.0.0.1:9/hook',
      events: ['booking.*'],
    });
    expect(created.webhook_secret).toMatch(/^whsec_/);
    const updated = await caller.webhooks.updateWebhookEndpoint({
      id: created.id,
      events: ['*'],
      description: 'All of it',
      is_active: false,
    });
    expect(updated).toMatchObject({ events: ['*'], description: 'All of it', is_active: false });
    const fetched = await caller.webhooks.getWebhookEndpoint({ id: created.id });
    expect(JSON.stringify(fetched)).not.toContain(created.webhook_secret);
    const test = await trpcError(caller.webhooks.sendWebhookTestEvent({ id: created.id }));
    expect(test.code).toBe('CONFLICT');

    const other = await callerFor(b.adminUserId, b.tenantId);
    expect((await trpcError(other.webhooks.getWebhookEndpoint({ id: created.id }))).code).toBe('NOT_FOUND');
    expect((await other.webhooks.listWebhookEndpoints({})).data).toHaveLength(0);

    await caller.webhooks.deleteWebhookEndpoint({ id: created.id });
    expect((await trpcError(caller.webhooks.getWebhookEndpoint({ id: created.id }))).code).toBe('NOT_FOUND');
  });
});

describe('dashboard sign-in (next-auth) shares the REST password check', () => {
  const credentials = () => authOptions().providers[0] as unknown as { options: CredentialsConfig };
  const authorize = (email: string, password: string, ip: string) =>
    credentials().options.authorize(
      { email, password },
      { headers: { 'x-forwarded-for': ip }, body: {}, query: {}, method: 'POST' },
    );

  it('returns the user with the only tenant, or null on a wrong password', async () => {
    const user = await authorize(a.adminEmail, a.adminPassword, '10.1.0.1');
    expect(user).toMatchObject({ id: a.adminUserId, tenantId: a.tenantId, role: 'admin' });
    expect(await authorize(a.adminEmail, 'wrong password', '10.1.0.1')).toBeNull();
  });

  it('counts failures together with the REST login and refuses with rate_limited', async () => {
    const user = await createTestUser(b.tenantId, 'agent');
    for (let i = 0; i < 5; i++) expect(await authorize(user.email, 'nope', '10.1.0.2')).toBeNull();
    for (let i = 0; i < 5; i++) {
      await expect(
        login({ email: user.email, password: 'nope', tenantHeader: null, ip: '10.1.0.2' }),
      ).rejects.toMatchObject({
        code: 'invalid_credentials',
      });
    }
    await expect(authorize(user.email, user.password, '10.1.0.2')).rejects.toThrow('rate_limited');
    await expect(
      login({ email: user.email, password: user.password, tenantHeader: null, ip: '10.1.0.2' }),
    ).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('leaves the tenant unchosen for a user of several tenants, and switches only to their own', async () => {
    const multi = await createTestUser(a.tenantId, 'agent');
    const { createUser } = await import('@/server/domain/tenants');
    await createUser({ tenantId: b.tenantId, email: multi.email, password: multi.password, role: 'admin' });
    const user = await authorize(multi.email, multi.password, '10.1.0.3');
    expect(user).toMatchObject({ id: multi.userId, tenantId: null, role: null });

    const jwt = authOptions().callbacks!.jwt!;
    const token = (await jwt({ token: {} as JWT, user: user!, account: null, trigger: 'signIn' })) as JWT;
    const switched = (await jwt({
      token,
      trigger: 'update',
      session: { tenantId: b.tenantId },
    } as never)) as JWT;
    expect(switched).toMatchObject({ userId: multi.userId, tenantId: b.tenantId, role: 'admin' });
    const outsider = await createTestTenant('C');
    const refused = (await jwt({
      token: switched,
      trigger: 'update',
      session: { tenantId: outsider.tenantId },
    } as never)) as JWT;
    expect(refused).toMatchObject({ tenantId: b.tenantId, role: 'admin' });
  });
});
