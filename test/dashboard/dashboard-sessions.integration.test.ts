// The dashboard's next-auth session: signing out ends it on the server, its cookie is Secure when the
// dashboard is served over https, and tRPC serves stored data whatever keys it holds while refusing a
// NUL character in its input.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Session } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { db } from '@/server/db/client';
import { newId } from '@/server/lib/ids';
import { authOptions } from '@/server/trpc/auth-options';
import { viewerFromSession } from '@/server/trpc/membership';
import { appRouter } from '@/server/trpc/root';
import { apiSuite } from '../support/harness';

const suite = apiSuite();
const a = suite.tenant;

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
