// The request path without a database round trip per credential or per rate-limit count
// (docs/operations.md, "Rate limits and credential checks on the request path"): credentials are cached until a
// change to them is announced, and the API limit is spent from leases of the shared count.

import pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  cachedCredential,
  credentialCacheListening,
  stopCredentialCache,
} from '@/server/auth/credential-cache';
import type { Principal } from '@/server/auth/principal';
import { permissionsOf } from '@/server/client-safe/permissions';
import { resetSettingsCache } from '@/server/config/settings';
import { directDatabaseUrl } from '@/server/db/client';
import { assertWithinApiRateLimit, leaseSize, resetApiRateLimitLeases } from '@/server/http/api-rate-limit';
import { AppError } from '@/server/lib/errors';
import { TEST_ENV } from '../support/env';
import { apiSuite } from '../support/harness';

const { api, tenant } = apiSuite();
let sql: pg.Client;

beforeAll(async () => {
  sql = new pg.Client({ connectionString: directDatabaseUrl() });
  await sql.connect();
});
afterAll(async () => {
  await sql.end();
});

async function until(check: () => boolean | Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the credential cache', () => {
  it('reads a credential once, and again only after a change to credentials is announced', async () => {
    let loads = 0;
    const load = async () => {
      loads++;
      return { role: 'admin' };
    };
    await cachedCredential('test:one', load);
    // The first lookup starts the listener; once it listens, answers are kept.
    await until(() => credentialCacheListening());
    await cachedCredential('test:one', load);
    const before = loads;
    for (let i = 0; i < 10; i++) await cachedCredential('test:one', load);
    expect(loads).toBe(before);
    // Any change to memberships (even of no row) is announced by the statement trigger on commit.
    await sql.query(`update memberships set role = role where false`);
    await until(async () => {
      await cachedCredential('test:one', load);
      return loads > before;
    });
  });

  it('never keeps a lookup that found nothing', async () => {
    let loads = 0;
    const load = async () => {
      loads++;
      return null;
    };
    for (let i = 0; i < 3; i++) await cachedCredential('test:missing', load);
    expect(loads).toBe(3);
  });

  it('cuts off a cached API key at once when another connection revokes it in SQL', async () => {
    const key = await tenant.admin('POST', '/api-keys', { body: { name: 'cached' } });
    expect(key.status).toBe(201);
    const token = key.body.key as string;
    for (let i = 0; i < 3; i++)
      expect((await api('GET', '/bookings', { token, tenantId: tenant.tenantId })).status).toBe(200);
    // As another instance (or an operator) would: straight in the database, not through this server.
    await sql.query(`update api_keys set revoked_at = now() where id = $1`, [key.body.id]);
    await until(
      async () => (await api('GET', '/bookings', { token, tenantId: tenant.tenantId })).status === 401,
      2_000,
    );
  });

  it('keeps a key’s permissions with it, and forgets them when another connection changes them in SQL', async () => {
    const key = await tenant.admin('POST', '/api-keys', {
      body: { name: 'cached, restricted', permissions: ['bookings.read', 'bookings.write'] },
    });
    expect(key.status).toBe(201);
    const token = key.body.key as string;
    for (let i = 0; i < 3; i++)
      expect((await api('GET', '/bookings', { token, tenantId: tenant.tenantId })).status).toBe(200);
    await sql.query(`update api_keys set permissions = '{payments.read}' where id = $1`, [key.body.id]);
    await until(
      async () => (await api('GET', '/bookings', { token, tenantId: tenant.tenantId })).status === 403,
      2_000,
    );
    expect((await api('GET', '/payments', { token, tenantId: tenant.tenantId })).status).toBe(200);
  });

  it('cuts off an access token at once when its member is removed (memberships are not cached)', async () => {
    const agent = await tenant.as('agent');
    expect((await agent('GET', '/bookings')).status).toBe(200);
    expect((await agent('GET', '/bookings')).status).toBe(200);
    await sql.query(`delete from memberships where tenant_id = $1 and role = 'agent'`, [tenant.tenantId]);
    await until(async () => (await agent('GET', '/bookings')).status === 401, 2_000);
  });

  it('does not cache while it cannot listen', async () => {
    await stopCredentialCache();
    const previous = process.env.DIRECT_URL;
    // A database that refuses connections: the listener never starts, so nothing is kept.
    process.env.DIRECT_URL = 'postgres://nobody@127.0.0.1:1/none';
    try {
      let loads = 0;
      const load = async () => {
        loads++;
        return { ok: true };
      };
      for (let i = 0; i < 5; i++) await cachedCredential('test:unlistened', load);
      expect(loads).toBe(5);
    } finally {
      if (previous === undefined) delete process.env.DIRECT_URL;
      else process.env.DIRECT_URL = previous;
      await stopCredentialCache();
    }
  });
});

describe('the leased API limit', () => {
  const principal: Principal = {
    kind: 'api_key',
    tenantId: '00000000-0000-4000-8000-00000000beef',
    keyId: 'key_lease',
    permissions: permissionsOf('admin'),
  };
  afterEach(() => {
    process.env.API_RATE_LIMIT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_SECOND;
    process.env.API_RATE_LIMIT_PER_TENANT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_TENANT_PER_SECOND;
    resetSettingsCache();
    resetApiRateLimitLeases();
    vi.restoreAllMocks();
  });

  it('leases a tenth of the limit at a time, so 100 requests write 10 + 4 times, not 200', async () => {
    Object.assign(process.env, {
      API_RATE_LIMIT_PER_SECOND: '100',
      API_RATE_LIMIT_PER_TENANT_PER_SECOND: '300',
    });
    resetSettingsCache();
    expect([leaseSize(100), leaseSize(300), leaseSize(5), leaseSize(1_000_000)]).toEqual([10, 30, 1, 100]);
    const consume = vi.spyOn(RateLimiterPostgres.prototype, 'consume');
    const one = { ...principal, keyId: `key_lease_${Date.now()}` };
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () => assertWithinApiRateLimit(one)),
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    // 100 requests of one key: 10 leases of 10 (credential) and 4 of 30 (tenant).
    expect(consume).toHaveBeenCalledTimes(14);
  });

  it('never lets more than the limit through, and refuses from memory once it is spent', async () => {
    Object.assign(process.env, {
      API_RATE_LIMIT_PER_SECOND: '25',
      API_RATE_LIMIT_PER_TENANT_PER_SECOND: '0',
    });
    resetSettingsCache();
    const one = { ...principal, keyId: `key_limit_${Date.now()}` };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () => assertWithinApiRateLimit(one)),
    );
    const passed = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(passed).toBeLessThanOrEqual(25);
    expect(passed).toBeGreaterThanOrEqual(24); // one lease of 2 may straddle the limit: 1 left unspent
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AppError);
    expect((refused.reason as AppError).code).toBe('rate_limited');
    const consume = vi.spyOn(RateLimiterPostgres.prototype, 'consume');
    await expect(assertWithinApiRateLimit(one)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(consume).not.toHaveBeenCalled();
  });
});
