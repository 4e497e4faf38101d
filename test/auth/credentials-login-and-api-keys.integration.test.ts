import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signAccessToken } from '@/server/auth/jwt';
import { db } from '@/server/db/client';
import { TEST_ENV } from '../support/env';
import { apiSuite } from '../support/harness';
import { createTestUser } from '../support/helpers';

const { api, tenant: a, other: b } = apiSuite({ other: true });

function expectProblem(
  res: { status: number; headers: Headers; body: { code: string; request_id: string } },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body.code).toBe(code);
  expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
}

function b64url(value: object | string): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

describe('tenant header', () => {
  it('is required, and checked before the credential', async () => {
    expectProblem(await api('GET', '/bookings', { token: null }), 400, 'tenant_header_missing');
    expectProblem(await api('GET', '/bookings', { token: a.apiKey }), 400, 'tenant_header_missing');
  });
  it('must be a UUID', async () => {
    expectProblem(
      await api('GET', '/bookings', { tenantId: 'acme', token: null }),
      400,
      'tenant_header_invalid',
    );
  });
});

describe('credentials', () => {
  it('accepts the tenant API key', async () => {
    const res = await api('GET', '/bookings', { tenantId: a.tenantId, token: a.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], next_cursor: null });
  });

  it.each([
    ['missing', undefined],
    ['not a bearer', 'Basic abc'],
    ['malformed API key', 'Bearer sk_live_short'],
    ['unknown API key', `Bearer sk_live_AAAAAAAAAAAA_${'A'.repeat(40)}`],
    ['garbage token', 'Bearer not-a-jwt'],
  ])('answers 401 unauthenticated for a %s credential', async (_, authorization) => {
    const res = await api('GET', '/bookings', {
      tenantId: a.tenantId,
      headers: authorization ? { Authorization: authorization } : {},
    });
    expectProblem(res, 401, 'unauthenticated');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('refuses a key whose secret part is wrong even with a real prefix', async () => {
    const forged = `${a.apiKey.slice(0, -4)}AAAA`;
    expectProblem(
      await api('GET', '/bookings', { tenantId: a.tenantId, token: forged }),
      401,
      'unauthenticated',
    );
  });

  it('answers 403 tenant_mismatch for a valid credential of another tenant', async () => {
    expectProblem(
      await api('GET', '/bookings', { tenantId: b.tenantId, token: a.apiKey }),
      403,
      'tenant_mismatch',
    );
  });

  it('answers token_expired for an expired access token', async () => {
    const expired = await signAccessToken(
      { userId: a.adminUserId, tenantId: a.tenantId, role: 'admin' },
      Date.now() - 31 * 60 * 1000,
    );
    const res = await api('GET', '/bookings', { tenantId: a.tenantId, token: expired });
    expectProblem(res, 401, 'token_expired');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('refuses tampered, alg:none and foreign-issuer tokens', async () => {
    const good = await signAccessToken({ userId: a.adminUserId, tenantId: a.tenantId, role: 'agent' });
    const [header, payload, signature] = good.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const escalated = `${header}.${b64url({ ...claims, role: 'admin' })}.${signature}`;
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    const key = `switchboard:jwt:${process.env.AUTH_SECRET}`;
    const sign = (h: object, c: object) => {
      const input = `${b64url(h)}.${b64url(c)}`;
      return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
    };
    const foreignIssuer = sign({ alg: 'HS256' }, { ...claims, iss: 'someone-else' });
    const foreignAudience = sign({ alg: 'HS256' }, { ...claims, aud: 'another-api' });
    const wrongSignature = createHmac('sha256', 'x'.repeat(40))
      .update(`${header}.${payload}`)
      .digest('base64url');
    const wrongSecret = `${header}.${payload}.${wrongSignature}`;
    for (const token of [escalated, none, foreignIssuer, foreignAudience, wrongSecret]) {
      expectProblem(await api('GET', '/bookings', { tenantId: a.tenantId, token }), 401, 'unauthenticated');
    }
    // The same signing path with untouched claims is accepted, so the refusals above are about the tampering.
    expect(
      (await api('GET', '/bookings', { tenantId: a.tenantId, token: sign({ alg: 'HS256' }, claims) })).status,
    ).toBe(200);
  });
});

describe('login, refresh and logout', () => {
  const login = (email: string, password: string, tenantId?: string) =>
    api('POST', '/auth/login', { body: { email, password }, tenantId: tenantId ?? null });

  it('signs in with the contract response and the token works', async () => {
    const res = await login(a.adminEmail.toUpperCase(), a.adminPassword);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 1800,
      tenant_id: a.tenantId,
      user: { id: a.adminUserId, email: a.adminEmail, role: 'admin' },
    });
    expect(Date.parse(res.body.refresh_token_expires_at) - Date.now()).toBeGreaterThan(
      29.9 * 24 * 3600 * 1000,
    );
    const claims = JSON.parse(Buffer.from(res.body.access_token.split('.')[1], 'base64url').toString());
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'role', 'sub', 'tid']);
    expect(claims.exp - claims.iat).toBe(1800);
    expect(
      (await api('GET', '/bookings', { tenantId: a.tenantId, token: res.body.access_token })).status,
    ).toBe(200);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const wrong = await login(a.adminEmail, 'not the password');
    const unknown = await login('nobody@example.test', 'not the password');
    expectProblem(wrong, 401, 'invalid_credentials');
    expectProblem(unknown, 401, 'invalid_credentials');
    expect({ ...wrong.body, request_id: '' }).toEqual({ ...unknown.body, request_id: '' });
  });

  it(
    'answers 403 tenant_mismatch for a tenant not theirs, ' + 'and 403 forbidden once they belong nowhere',
    async () => {
      const { email, password } = await createTestUser(a.tenantId, 'agent');
      expectProblem(await login(email, password, b.tenantId), 403, 'tenant_mismatch');
      await db().membership.deleteMany({ where: { user: { email } } });
      expectProblem(await login(email, password), 403, 'forbidden');
      // The right password is still checked first: a wrong one answers as for anyone else.
      expectProblem(await login(email, 'not the password'), 401, 'invalid_credentials');
    },
  );

  it('needs X-Tenant-ID for a user of several tenants, and honours it', async () => {
    const { email, password } = await createTestUser(a.tenantId, 'agent');
    await createTestUser(b.tenantId, 'admin').catch(() => {});
    const { createUser } = await import('@/server/domain/tenants');
    await createUser({ tenantId: b.tenantId, email, password, role: 'admin' });
    expectProblem(await login(email, password), 400, 'tenant_required');
    const inB = await login(email, password, b.tenantId);
    expect(inB.status).toBe(200);
    expect(inB.body).toMatchObject({ tenant_id: b.tenantId, user: { role: 'admin' } });
    const inA = await login(email, password, a.tenantId);
    expect(inA.body).toMatchObject({ tenant_id: a.tenantId, user: { role: 'agent' } });
  });

  it('rotates refresh tokens and revokes the family when a spent token comes back', async () => {
    const first = (await login(a.adminEmail, a.adminPassword)).body;
    const second = await api('POST', '/auth/refresh', { body: { refresh_token: first.refresh_token } });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.refresh_token_expires_at).toBe(first.refresh_token_expires_at);
    expect(
      (await api('GET', '/bookings', { tenantId: a.tenantId, token: second.body.access_token })).status,
    ).toBe(200);

    const replay = await api('POST', '/auth/refresh', { body: { refresh_token: first.refresh_token } });
    expectProblem(replay, 401, 'refresh_token_reused');
    // The legitimate successor is revoked too: the family is gone.
    expectProblem(
      await api('POST', '/auth/refresh', { body: { refresh_token: second.body.refresh_token } }),
      401,
      'unauthenticated',
    );
  });

  it('answers token_expired once the family is 30 days old', async () => {
    const session = (await login(a.adminEmail, a.adminPassword)).body;
    const { db } = await import('@/server/db/client');
    const { sha256Hex } = await import('@/server/security/hashing');
    await db().refreshToken.update({
      where: { tokenHash: sha256Hex(session.refresh_token) },
      data: { familyExpiresAt: new Date(Date.now() - 1000) },
    });
    expectProblem(
      await api('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } }),
      401,
      'token_expired',
    );
  });

  it('refuses a refresh with another tenant in the header', async () => {
    const session = (await login(a.adminEmail, a.adminPassword)).body;
    const res = await api('POST', '/auth/refresh', {
      body: { refresh_token: session.refresh_token },
      tenantId: b.tenantId,
    });
    expectProblem(res, 403, 'tenant_mismatch');
  });

  it('logs out by revoking the family', async () => {
    const session = (await login(a.adminEmail, a.adminPassword)).body;
    const out = await api('POST', '/auth/logout', { body: { refresh_token: session.refresh_token } });
    expect(out.status).toBe(204);
    expectProblem(
      await api('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } }),
      401,
      'unauthenticated',
    );
  });

  it('rate limits repeated failures per email with Retry-After', async () => {
    const { email, password } = await createTestUser(a.tenantId, 'agent');
    for (let i = 0; i < 10; i++)
      expectProblem(await login(email, 'wrong password'), 401, 'invalid_credentials');
    const limited = await login(email, password);
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('request bodies', () => {
  const post = (init: { rawBody?: string; body?: unknown; headers?: Record<string, string> }) =>
    api('POST', '/api-keys', { tenantId: a.tenantId, token: a.apiKey, ...init });

  it('answers 415 for a body that is not application/json', async () => {
    expectProblem(
      await post({ rawBody: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      415,
      'unsupported_media_type',
    );
  });
  it('answers 400 invalid_json for malformed JSON', async () => {
    expectProblem(
      await post({ rawBody: '{"name": ', headers: { 'Content-Type': 'application/json' } }),
      400,
      'invalid_json',
    );
  });
  it('answers 413 for a body over 1 MiB', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    expectProblem(
      await post({ rawBody: big, headers: { 'Content-Type': 'application/json' } }),
      413,
      'payload_too_large',
    );
  });
  it('answers 422 with every problem listed', async () => {
    const res = await post({ body: { name: '', expires_at: 'yesterday' } });
    expectProblem(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['expires_at', 'name']);
  });
});

describe('API keys', () => {
  it('creates, lists, tracks use, rotates with grace and revokes', async () => {
    const call = a.admin;
    const created = await call('POST', '/api-keys', { body: { name: 'CI' } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(new RegExp(`^sk_live_${created.body.prefix}_[0-9A-Za-z]{40}$`));
    const key = created.body.key as string;

    expect((await call('GET', '/bookings', { token: key })).status).toBe(200);
    const listed = await call('GET', '/api-keys');
    const row = listed.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(row).toMatchObject({ name: 'CI', prefix: created.body.prefix });
    expect(row.key).toBeUndefined();
    expect(Date.parse(row.last_used_at)).toBeGreaterThan(Date.now() - 60_000);

    const graceful = await call('POST', `/api-keys/${created.body.id}/rotate`, {
      body: { grace_seconds: 3600 },
    });
    expect(graceful.status).toBe(201);
    expect((await call('GET', '/bookings', { token: key })).status).toBe(200);
    expect((await call('GET', '/bookings', { token: graceful.body.key })).status).toBe(200);

    const immediate = await call('POST', `/api-keys/${graceful.body.id}/rotate`, { body: {} });
    expect((await call('GET', '/bookings', { token: graceful.body.key })).status).toBe(401);

    expect((await call('DELETE', `/api-keys/${immediate.body.id}`)).status).toBe(204);
    expectProblem(await call('GET', '/bookings', { token: immediate.body.key }), 401, 'unauthenticated');
    expectProblem(await call('DELETE', `/api-keys/${immediate.body.id}`), 404, 'not_found');
  });

  it('refuses grace periods over 24 h', async () => {
    const call = a.admin;
    const created = await call('POST', '/api-keys', { body: { name: 'g' } });
    expectProblem(
      await call('POST', `/api-keys/${created.body.id}/rotate`, { body: { grace_seconds: 86_401 } }),
      422,
      'validation_failed',
    );
  });

  it('expires keys at expires_at', async () => {
    const call = a.admin;
    const soon = new Date(Date.now() + 1500).toISOString();
    const created = await call('POST', '/api-keys', { body: { name: 'short', expires_at: soon } });
    expect((await call('GET', '/bookings', { token: created.body.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expectProblem(await call('GET', '/bookings', { token: created.body.key }), 401, 'unauthenticated');
  });

  it('is admin-only: agents get 403 forbidden', async () => {
    const call = await a.as('agent');
    expectProblem(await call('GET', '/api-keys'), 403, 'forbidden');
    expectProblem(await call('POST', '/api-keys', { body: { name: 'x' } }), 403, 'forbidden');
    expect((await call('GET', '/bookings')).status).toBe(200);
  });

  it("cannot see or revoke another tenant's key", async () => {
    const mine = await b.admin('POST', '/api-keys', { body: { name: 'b' } });
    const asA = a.admin;
    expectProblem(await asA('DELETE', `/api-keys/${mine.body.id}`), 404, 'not_found');
    expectProblem(await asA('POST', `/api-keys/${mine.body.id}/rotate`, { body: {} }), 404, 'not_found');
    expect((await asA('GET', '/api-keys')).body.data.map((k: { id: string }) => k.id)).not.toContain(
      mine.body.id,
    );
  });
});

describe('routing and metadata', () => {
  it('answers unknown routes with 404 not_found and wrong methods with 405', async () => {
    expectProblem(await api('GET', '/nope', { tenantId: a.tenantId }), 404, 'not_found');
    const res = await api('DELETE', '/api-keys', { tenantId: a.tenantId, token: a.apiKey });
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const echoed = await api('GET', '/bookings', {
      tenantId: a.tenantId,
      token: a.apiKey,
      headers: { 'X-Request-Id': 'abc-123' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await api('GET', '/bookings', {
      tenantId: a.tenantId,
      token: a.apiKey,
      headers: { 'X-Request-Id': 'a b<script>' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('serves the OpenAPI document without credentials, listing every route', async () => {
    const res = await api('GET', '/openapi.json', { tenantId: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const { routes } = await import('@/server/api/routes');
    for (const route of routes) {
      const op = res.body.paths[`/api/v1${route.path}`]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      if (route.auth === 'tenant')
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401', '403']));
    }
  });
});

describe('API rate limit', () => {
  it('answers 429 rate_limited with Retry-After past the per-credential budget, per credential', async () => {
    const { resetSettingsCache } = await import('@/server/config/settings');
    process.env.API_RATE_LIMIT_PER_SECOND = '5';
    resetSettingsCache();
    try {
      const call = a.admin;
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () => call('GET', '/bookings').then((r) => r)),
      );
      const limited = statuses.filter((r) => r.status === 429);
      expect(statuses.filter((r) => r.status === 200).length).toBeLessThanOrEqual(5);
      expect(limited.length).toBeGreaterThanOrEqual(3);
      expectProblem(limited[0], 429, 'rate_limited');
      expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another credential has its own budget.
      expect((await b.admin('GET', '/bookings')).status).toBe(200);
    } finally {
      process.env.API_RATE_LIMIT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_SECOND;
      resetSettingsCache();
    }
  });
});
