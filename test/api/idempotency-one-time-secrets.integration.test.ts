// An Idempotency-Key never leaks a one-time secret: an answer holding one (a new API key, a webhook
// secret) is stored without it and replayed only to the credential that made the first request;
// answers without a secret replay to any credential of the tenant.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { createUser } from '@/server/domain/tenants';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';
import { client } from '../support/helpers';

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
