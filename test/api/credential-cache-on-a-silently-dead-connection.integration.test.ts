// The credential cache trusts its LISTEN connection only while the connection proves it is alive: a
// load balancer that drops an idle connection sends no reset, and notices of revocation are then lost
// while the socket still looks open. Here the cache listens through a proxy that stops forwarding
// without closing anything (a blackhole); a key revoked meanwhile, straight in the database as another
// instance would, is refused within LISTEN_PROOF_MAX_AGE_MS (docs/operations.md), not after the 60 s
// an entry may live. Once the proxy forwards again a new connection replaces the dead one and the
// cache is used again.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialCacheListening, stopCredentialCache } from '@/server/auth/credential-cache';
import { directDatabaseUrl } from '@/server/db/client';
import { LISTEN_PROOF_MAX_AGE_MS, listen, listenerApplicationName } from '@/server/db/listen';
import { apiSuite } from '../support/harness';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

const { api, tenant } = apiSuite();
let sql: pg.Client;
let proxy: TcpProxy;
const previousDirectUrl = process.env.DIRECT_URL;

beforeAll(async () => {
  const real = new URL(directDatabaseUrl());
  sql = new pg.Client({ connectionString: real.toString() });
  await sql.connect();
  proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port) });
  // Only LISTEN goes through the proxy: requests still read their keys from the database directly.
  real.port = String(proxy.port);
  process.env.DIRECT_URL = real.toString();
  await stopCredentialCache();
});
afterAll(async () => {
  await stopCredentialCache();
  if (previousDirectUrl === undefined) delete process.env.DIRECT_URL;
  else process.env.DIRECT_URL = previousDirectUrl;
  await proxy.close();
  await sql.end();
});

async function until(check: () => boolean | Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('security finding 3: the credential cache trusts a LISTEN connection that may have died silently', () => {
  it('a key revoked while the connection is blackholed is refused within the documented bound', async () => {
    const key = await tenant.admin('POST', '/api-keys', { body: { name: 'cached behind a blackhole' } });
    expect(key.status).toBe(201);
    const call = async () =>
      (await api('GET', '/bookings', { token: key.body.key, tenantId: tenant.tenantId })).status;
    expect(await call()).toBe(200);
    await until(() => credentialCacheListening(), 5_000);
    expect(await call()).toBe(200); // now answered from the cache

    proxy.blackhole();
    await sql.query(`update api_keys set revoked_at = now() where id = $1`, [key.body.id]);
    const revokedAt = Date.now();
    // The notice is lost in the blackhole: only the heartbeat can end the cache's trust.
    await until(async () => (await call()) === 401, LISTEN_PROOF_MAX_AGE_MS + 1_000);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(LISTEN_PROOF_MAX_AGE_MS + 1_000);
    expect(credentialCacheListening()).toBe(false);

    // Forwarding again: a new connection replaces the dead one and the cache is trusted again.
    proxy.forward();
    await until(() => credentialCacheListening(), 20_000);
  });

  it('a listener whose heartbeat goes unanswered says so, and is replaced by a new connection', async () => {
    const seen = { listening: 0, lost: 0 };
    const listener = await listen('test_blackholed_listener', {
      name: 'blackhole test',
      connectionString: process.env.DIRECT_URL,
      onNotification: () => undefined,
      onListening: () => seen.listening++,
      onLost: () => seen.lost++,
    });
    try {
      expect(listener.listening()).toBe(true);
      // Its connection says who it is, for an operator reading pg_stat_activity.
      const { rows } = await sql.query(
        `select count(*)::int as n from pg_stat_activity where application_name = $1`,
        [listenerApplicationName('blackhole test')],
      );
      expect(rows[0].n).toBe(1);
      proxy.blackhole();
      const since = Date.now();
      await until(() => !listener.listening(), LISTEN_PROOF_MAX_AGE_MS + 1_000);
      expect(Date.now() - since).toBeLessThanOrEqual(LISTEN_PROOF_MAX_AGE_MS + 1_000);
      await until(() => seen.lost === 1, 10_000);
      proxy.forward();
      await until(() => seen.listening >= 2 && listener.listening(), 20_000);
    } finally {
      proxy.forward();
      await listener.stop();
    }
  });
});
