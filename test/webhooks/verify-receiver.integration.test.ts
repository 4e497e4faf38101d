// POST /webhooks/{id}/verify-receiver (docs/decisions.md "Integrator tools"): four signed requests; a receiver that verifies
// with the Standard Webhooks library passes, one that accepts everything fails; nothing is recorded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { givenEndpoint } from '../support/builders';
import { apiSuite } from '../support/harness';

const { tenant: a, other: b } = apiSuite({ other: true, agent: true });

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
}
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** A receiver on loopback whose answer `judge` decides from the request (it may need the secret later). */
async function receiver(judge: (hit: Hit) => number) {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      hits.push(hit);
      res.writeHead(judge(hit)).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits };
}

/** A correct receiver: the public library checks signature and timestamp (5 minutes of tolerance). */
function verifying(secret: () => string) {
  return (hit: Hit) => {
    try {
      new Webhook(secret()).verify(hit.body, {
        'webhook-id': String(hit.headers['webhook-id']),
        'webhook-timestamp': String(hit.headers['webhook-timestamp']),
        'webhook-signature': String(hit.headers['webhook-signature']),
      });
      return 204;
    } catch {
      return 401;
    }
  };
}

const CASES = ['valid', 'bad_signature', 'stale_timestamp', 'tampered_body'];

describe('verify-receiver', () => {
  it('passes a receiver that verifies with standardwebhooks, and records no delivery or event', async () => {
    let secret = '';
    const hook = await receiver(verifying(() => secret));
    const endpoint = await givenEndpoint(a.admin, hook.url, ['booking.*']);
    secret = endpoint.webhook_secret;
    const db = forTenant(a.tenantId);
    const before = { events: await db.event.count(), deliveries: await db.delivery.count() };

    const res = await a.admin('POST', `/webhooks/${endpoint.id}/verify-receiver`);
    expect(res.status).toBe(200);
    expect(res.body.passed).toBe(true);
    expect(res.body.results.map((r: { case: string }) => r.case)).toEqual(CASES);
    expect(res.body.results).toEqual([
      { case: 'valid', expected: 'accept', status: 204, ok: true, error: null },
      expect.objectContaining({ case: 'bad_signature', expected: 'reject', status: 401, ok: true }),
      expect.objectContaining({ case: 'stale_timestamp', expected: 'reject', status: 401, ok: true }),
      expect.objectContaining({ case: 'tampered_body', expected: 'reject', status: 401, ok: true }),
    ]);

    expect(hook.hits).toHaveLength(4);
    const ids = new Set(hook.hits.map((h) => h.headers['webhook-id']));
    expect(ids.size).toBe(4);
    for (const hit of hook.hits) {
      expect(hit.headers['user-agent']).toBe('Switchboard-Webhooks/1');
      expect(hit.headers['x-service-event-type']).toBe('webhook.test');
      expect(hit.headers['x-service-signature']).toBe(hit.headers['webhook-signature']);
    }
    const stamps = hook.hits.map((h) => Number(h.headers['webhook-timestamp']));
    expect(Math.max(...stamps) - Math.min(...stamps)).toBeGreaterThanOrEqual(600);
    expect(await db.event.count()).toBe(before.events);
    expect(await db.delivery.count()).toBe(before.deliveries);
  });

  it('fails a naive receiver that accepts everything', async () => {
    const hook = await receiver(() => 200);
    const endpoint = await givenEndpoint(a.admin, hook.url, ['*']);
    const res = await a.admin('POST', `/webhooks/${endpoint.id}/verify-receiver`);
    expect(res.status).toBe(200);
    expect(res.body.passed).toBe(false);
    expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, false, false]);
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it('fails a receiver that refuses everything, and one that cannot be reached', async () => {
    const refusing = await receiver(() => 400);
    const endpoint = await givenEndpoint(a.admin, refusing.url, ['*']);
    const refused = await a.admin('POST', `/webhooks/${endpoint.id}/verify-receiver`);
    expect(refused.body.passed).toBe(false);
    expect(refused.body.results[0]).toMatchObject({ case: 'valid', ok: false, status: 400 });

    const gone = await givenEndpoint(a.admin, 'http://127.0.0.1:9/hook', ['*']);
    const unreachable = await a.admin('POST', `/webhooks/${gone.id}/verify-receiver`);
    expect(unreachable.body.passed).toBe(false);
    for (const r of unreachable.body.results) {
      expect(r).toMatchObject({ status: null, ok: false });
      expect(r.error).toBeTruthy();
    }
  });

  it('keeps the deliveries’ SSRF rules: a private target is refused unless the operator allows it', async () => {
    const hook = await receiver(() => 200);
    const endpoint = await givenEndpoint(a.admin, hook.url, ['*']);
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'false';
    resetSettingsCache();
    try {
      const res = await a.admin('POST', `/webhooks/${endpoint.id}/verify-receiver`);
      expect(res.status).toBe(200);
      expect(res.body.passed).toBe(false);
      for (const r of res.body.results) expect(r.error).toMatch(/^url_not_allowed/);
      expect(hook.hits).toHaveLength(0);
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
      resetSettingsCache();
    }
  });

  it('is for admins of the endpoint’s tenant only', async () => {
    const hook = await receiver(() => 200);
    const endpoint = await givenEndpoint(a.admin, hook.url, ['*']);
    expect((await a.agent('POST', `/webhooks/${endpoint.id}/verify-receiver`)).status).toBe(403);
    expect((await b.admin('POST', `/webhooks/${endpoint.id}/verify-receiver`)).status).toBe(404);
    expect(hook.hits).toHaveLength(0);
  });
});
