// Connecting Stripe per tenant: PUT/GET/DELETE /payment-providers (see their OpenAPI descriptions).
import { describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import { decryptSecret } from '@/server/security/secret-box';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite, fakeStripeSuite } from '../support/harness';
import { rememberSecret } from '../support/log-scan';
import { connectStripe, stripeWebhookPath } from '../support/stripe-fixtures';

const stripe = fakeStripeSuite();
const suite = apiSuite({ other: true, agent: true });
const { tenant: a, other: b, newTenant } = suite;

async function storedRow(tenantId: string) {
  const { rows } = await pgPool().query('select * from payment_provider_connections where tenant_id = $1', [
    tenantId,
  ]);
  return rows[0];
}

async function auditActions(tenantId: string) {
  const { rows } = await pgPool().query(
    "select action, actor_type, target_type, target_id, row_to_json(audit_log)::text as text from audit_log where tenant_id = $1 and action like 'payment_provider.%' order by id",
    [tenantId],
  );
  return rows;
}

describe('PUT /payment-providers/stripe', () => {
  it('verifies the key with Stripe, stores both secrets encrypted and answers hints only', async () => {
    const t = await newTenant('Connect');
    // The URL to give Stripe is known before connecting (Stripe's endpoint comes first, then its secret).
    expect((await t.admin('GET', '/payment-providers')).body).toEqual({
      data: [],
      stripe_webhook_url: `http://localhost:3000${stripeWebhookPath(t.tenantId)}`,
    });
    const account = stripe.createAccount();
    rememberSecret('Stripe secret key', account.secretKey);
    const before = stripe.requestsTo('GET', /^\/v1\/account$/).length;
    const res = await t.admin('PUT', '/payment-providers/stripe', {
      body: { secret_key: account.secretKey, webhook_secret: account.webhookSecret },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      provider: 'stripe',
      account_id: account.id,
      livemode: false,
      webhook_url: `http://localhost:3000${stripeWebhookPath(t.tenantId)}`,
      secret_key_last4: account.secretKey.slice(-4),
      webhook_secret_last4: account.webhookSecret.slice(-4),
      connected_at: expect.any(String),
    });
    expect(res.text).not.toContain(account.secretKey);
    expect(res.text).not.toContain(account.webhookSecret);
    const checks = stripe.requestsTo('GET', /^\/v1\/account$/).slice(before);
    expect(checks.map((r) => [r.apiKey, r.status])).toEqual([[account.secretKey, 200]]);

    const row = await storedRow(t.tenantId);
    expect(JSON.stringify(row)).not.toContain(account.secretKey);
    expect(JSON.stringify(row)).not.toContain(account.webhookSecret);
    expect(decryptSecret(row.secret_key_enc)).toBe(account.secretKey);
    expect(decryptSecret(row.webhook_secret_enc)).toBe(account.webhookSecret);

    expect((await t.admin('GET', '/payment-providers')).body).toEqual({
      data: [res.body],
      stripe_webhook_url: res.body.webhook_url,
    });
    const [entry] = await auditActions(t.tenantId);
    expect(entry).toMatchObject({
      action: 'payment_provider.connected',
      actor_type: 'api_key',
      target_type: 'payment_provider',
      target_id: 'stripe',
    });
    expect(entry.text).not.toContain(account.secretKey.slice(8));
    expect(entry.text).not.toContain(account.webhookSecret.slice(6));
  });

  it('names the public URL in webhook_url when AUTH_URL is set', async () => {
    process.env.AUTH_URL = 'https://switchboard.example.com/';
    resetSettingsCache();
    try {
      const t = await newTenant('Public URL');
      await connectStripe(t, stripe);
      const [connection] = (await t.admin('GET', '/payment-providers')).body.data;
      expect(connection.webhook_url).toBe(`https://switchboard.example.com${stripeWebhookPath(t.tenantId)}`);
    } finally {
      delete process.env.AUTH_URL;
      resetSettingsCache();
    }
  });

  it('refuses a key Stripe does not accept with 422 provider_verification_failed, storing nothing', async () => {
    const t = await newTenant('Refused');
    const res = await t.admin('PUT', '/payment-providers/stripe', {
      body: { secret_key: 'sk_test_madeUpKeyNobodyIssued0000', webhook_secret: 'whsec_madeUpSecret0000' },
    });
    expectProblemCode(res, 422, 'provider_verification_failed');
    expect(res.body.errors).toEqual([{ path: 'secret_key', message: 'Stripe refused the secret key' }]);
    expect(res.text).not.toContain('madeUpKeyNobodyIssued');
    expect(await storedRow(t.tenantId)).toBeUndefined();
    expect(await auditActions(t.tenantId)).toEqual([]);
    expect((await t.admin('GET', '/payment-providers')).body.data).toEqual([]);
  });

  it('answers 502 payment_provider_unavailable when Stripe does not answer, storing nothing', async () => {
    const t = await newTenant('Stripe down');
    const account = stripe.createAccount();
    stripe.failNext(/^\/v1\/account$/, { kind: 'status', status: 503 }, 3);
    const res = await t.admin('PUT', '/payment-providers/stripe', {
      body: { secret_key: account.secretKey, webhook_secret: account.webhookSecret },
    });
    expectProblemCode(res, 502, 'payment_provider_unavailable');
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await storedRow(t.tenantId)).toBeUndefined();
  });

  it.each([
    [
      'a publishable key',
      { secret_key: 'pk_test_51PqR5sTuVwXyZ012345', webhook_secret: 'whsec_abcdefgh1234' },
      'secret_key',
    ],
    ['no webhook secret', { secret_key: 'sk_test_51PqR5sTuVwXyZ012345' }, 'webhook_secret'],
    [
      'a webhook secret without whsec_',
      { secret_key: 'sk_test_51PqR5sTuVwXyZ012345', webhook_secret: 'abcdefgh' },
      'webhook_secret',
    ],
  ])('refuses %s with 422 validation_failed, without asking Stripe', async (_, body, path) => {
    const before = stripe.requests.length;
    const res = await a.admin('PUT', '/payment-providers/stripe', { body });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(stripe.requests.length).toBe(before);
  });

  it('replaces both secrets when connected again: the old signing secret stops verifying', async () => {
    const t = await newTenant('Reconnect');
    const first = await connectStripe(t, stripe);
    const second = await connectStripe(t, stripe);
    const [connection] = (await t.admin('GET', '/payment-providers')).body.data;
    expect(connection.account_id).toBe(second.id);
    const event = stripe.makeEvent(first, 'checkout.session.completed', {
      object: 'checkout.session',
      id: 'cs_x',
    });
    const old = await stripe.deliver(event, `${suite.url}${stripeWebhookPath(t.tenantId)}`);
    expect([old.status, old.body.code]).toEqual([400, 'signature_verification_failed']);
    const fresh = await stripe.deliver(event, `${suite.url}${stripeWebhookPath(t.tenantId)}`, {
      secret: second.webhookSecret,
    });
    expect(fresh.status).toBe(200);
    expect((await auditActions(t.tenantId)).map((e) => e.action)).toEqual([
      'payment_provider.connected',
      'payment_provider.connected',
    ]);
  });
});

describe('DELETE /payment-providers/stripe', () => {
  it("forgets the keys (204), is audited, and Stripe's webhooks for the tenant are refused from then on", async () => {
    const t = await newTenant('Disconnect');
    const account = await connectStripe(t, stripe);
    const res = await t.admin('DELETE', '/payment-providers/stripe');
    expect(res.status, res.text).toBe(204);
    expect(await storedRow(t.tenantId)).toBeUndefined();
    expect((await t.admin('GET', '/payment-providers')).body.data).toEqual([]);
    expect((await auditActions(t.tenantId)).map((e) => e.action)).toEqual([
      'payment_provider.connected',
      'payment_provider.disconnected',
    ]);
    const event = stripe.makeEvent(account, 'checkout.session.completed', {
      object: 'checkout.session',
      id: 'cs_y',
    });
    const late = await stripe.deliver(event, `${suite.url}${stripeWebhookPath(t.tenantId)}`);
    expect([late.status, late.body.code]).toEqual([400, 'signature_verification_failed']);
    expectProblemCode(await t.admin('DELETE', '/payment-providers/stripe'), 404, 'not_found');
  });
});

describe('roles and tenants', () => {
  it('is for admins only, and one tenant never sees another tenant’s connection', async () => {
    await connectStripe(a, stripe);
    for (const [method, path] of [
      ['GET', '/payment-providers'],
      ['PUT', '/payment-providers/stripe'],
      ['DELETE', '/payment-providers/stripe'],
    ]) {
      const body =
        method === 'PUT'
          ? { body: { secret_key: 'sk_test_51PqR5sTuVwXyZ012345', webhook_secret: 'whsec_abcdefgh' } }
          : {};
      expectProblemCode(await a.agent(method, path, body), 403, 'forbidden');
    }
    expect((await a.admin('GET', '/payment-providers')).body.data).toHaveLength(1);
    expect((await b.admin('GET', '/payment-providers')).body.data).toEqual([]);
  });
});
