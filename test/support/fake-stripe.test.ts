// The stand-in Stripe (test/support/fake-stripe.ts) against the real SDK as its client, configured exactly as the
// service configures it (server/stripe/client.ts): if the stand-in drifted from Stripe's wire format, the
// SDK would fail to encode, decode or classify here before any service test could mislead.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { STRIPE_API_VERSION, stripeClient } from '@/server/stripe/client';
import { type FakeAccount, FakeStripe, parseStripeParams, startFakeStripe } from './fake-stripe';

let fake: FakeStripe;
let account: FakeAccount;
let stripe: Stripe;

beforeAll(async () => {
  fake = await startFakeStripe();
  process.env.STRIPE_API_URL = fake.url;
  resetSettingsCache();
  account = fake.createAccount();
  stripe = stripeClient(account.secretKey);
});
afterAll(async () => {
  await fake.close();
  delete process.env.STRIPE_API_URL;
  resetSettingsCache();
});

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

function sessionParams(overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  return {
    mode: 'payment' as const,
    line_items: [
      { quantity: 1, price_data: { currency: 'eur', unit_amount: 4500, product_data: { name: 'Cut' } } },
    ],
    client_reference_id: 'bkg_1',
    metadata: { tenant_id: 't', booking_id: 'bkg_1', payment_id: 'pay_1' },
    expires_at: inAnHour(),
    ...overrides,
  };
}

async function paidIntent(amount = 4500): Promise<string> {
  const session = await stripe.checkout.sessions.create(
    sessionParams({
      line_items: [
        { quantity: 1, price_data: { currency: 'eur', unit_amount: amount, product_data: { name: 'X' } } },
      ],
    }),
  );
  fake.completeSession(session.id);
  return fake.session(session.id).payment_intent;
}

describe('wire format', () => {
  it('expands bracket notation as Stripe does', () => {
    expect(
      parseStripeParams('a[b][0][c]=x&a[b][1][c]=y&a[d]=z&expand[0]=charge&list[]=p&list[]=q&plain=%26'),
    ).toEqual({
      a: { b: [{ c: 'x' }, { c: 'y' }], d: 'z' },
      expand: ['charge'],
      list: ['p', 'q'],
      plain: '&',
    });
  });

  it('reads what the SDK sends and answers objects the SDK returns typed', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'k-wire' });
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 4500,
      currency: 'eur',
      livemode: false,
      client_reference_id: 'bkg_1',
      metadata: { tenant_id: 't', booking_id: 'bkg_1', payment_id: 'pay_1' },
      payment_intent: null,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toContain(session.id);
    const [request] = fake.requestsTo('POST', /^\/v1\/checkout\/sessions$/).slice(-1);
    expect(request).toMatchObject({
      apiKey: account.secretKey,
      idempotencyKey: 'k-wire',
      stripeVersion: STRIPE_API_VERSION,
      params: {
        mode: 'payment',
        line_items: [
          {
            quantity: '1',
            price_data: { currency: 'eur', unit_amount: '4500', product_data: { name: 'Cut' } },
          },
        ],
        metadata: { payment_id: 'pay_1' },
      },
    });
    const read = await stripe.checkout.sessions.retrieve(session.id);
    expect(read.id).toBe(session.id);
  });

  it('answers 401 for a key it does not know, which the SDK raises as an authentication error', async () => {
    const stranger = stripeClient('sk_test_notAKeyOfAnyAccount0000');
    const error = await stranger.accounts.retrieveCurrent().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(401);
    await expect(stripe.accounts.retrieveCurrent()).resolves.toMatchObject({
      id: account.id,
      object: 'account',
    });
  });

  it("keeps accounts apart: another account's session is resource_missing", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const other = stripeClient(fake.createAccount().secretKey);
    const error = (await other.checkout.sessions
      .retrieve(session.id)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect([error.statusCode, error.code]).toEqual([404, 'resource_missing']);
  });

  it('refuses an expires_at outside 30 minutes to 24 hours, naming the parameter', async () => {
    for (const expires_at of [
      Math.floor(Date.now() / 1000) + 29 * 60,
      Math.floor(Date.now() / 1000) + 25 * 3600,
    ]) {
      const error = (await stripe.checkout.sessions
        .create(sessionParams({ expires_at }))
        .catch((e: unknown) => e)) as Stripe.errors.StripeError;
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect([error.statusCode, error.param]).toEqual([400, 'expires_at']);
    }
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and parameters, with Idempotent-Replayed', async () => {
    const first = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'k-same' });
    const again = await stripe.checkout.sessions.create(sessionParams({ expires_at: first.expires_at }), {
      idempotencyKey: 'k-same',
    });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses the same key with other parameters (idempotency_error, 400)', async () => {
    await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'k-other' });
    const error = (await stripe.checkout.sessions
      .create(sessionParams({ client_reference_id: 'bkg_2' }), { idempotencyKey: 'k-other' })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error.statusCode).toBe(400);
  });

  it('does not keep a refusal of the parameters, so the corrected request may use the key', async () => {
    const bad = await stripe.checkout.sessions
      .create(sessionParams({ expires_at: 1 }), { idempotencyKey: 'k-fix' })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(
      stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: 'k-fix' }),
    ).resolves.toMatchObject({
      status: 'open',
    });
  });

  it('replays a request whose answer was cut off: the SDK retries with the same key, the work is done once', async () => {
    const intent = await paidIntent();
    fake.failNext(/^\/v1\/refunds$/, { kind: 'drop' }, 1, 'POST');
    const refund = await stripe.refunds.create(
      { payment_intent: intent, amount: 1000 },
      { idempotencyKey: 'r-drop' },
    );
    expect(refund.amount).toBe(1000);
    expect(refund.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(fake.refundsOf(intent)).toHaveLength(1);
    const attempts = fake.requestsTo('POST', /^\/v1\/refunds$/).filter((r) => r.idempotencyKey === 'r-drop');
    expect(attempts.map((r) => [r.status, r.replayed])).toEqual([
      [0, false],
      [200, true],
    ]);
  });

  it('answers injected 5xx as Stripe does (api_error), which the SDK retries and then raises', async () => {
    fake.failNext(/^\/v1\/account$/, { kind: 'status', status: 500 }, 3);
    const error = await stripe.accounts.retrieveCurrent().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(fake.requestsTo('GET', /^\/v1\/account$/).filter((r) => r.status === 500)).toHaveLength(3);
  });
});

describe('sessions and refunds', () => {
  it('completes a session with a payment intent and charge, and expires only open sessions', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const event = fake.completeSession(session.id);
    expect(event).toMatchObject({
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: session.id, status: 'complete', payment_status: 'paid' } },
    });
    const intent = event.data.object.payment_intent as string;
    expect(intent).toMatch(/^pi_/);
    expect(fake.chargeOf(intent)).toMatchObject({
      object: 'charge',
      amount: 4500,
      amount_refunded: 0,
      paid: true,
    });
    const error = (await stripe.checkout.sessions
      .expire(session.id)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.message).toContain('has a status of `complete`');

    const open = await stripe.checkout.sessions.create(sessionParams());
    await expect(stripe.checkout.sessions.expire(open.id)).resolves.toMatchObject({ status: 'expired' });
    expect(fake.eventsOf(account, 'checkout.session.expired').map((e) => e.data.object.id)).toContain(
      open.id,
    );
  });

  it('refunds in part and in full, refuses more than remains, and records charge.refunded with the running total', async () => {
    const intent = await paidIntent(5000);
    const part = await stripe.refunds.create({ payment_intent: intent, amount: 2000, expand: ['charge'] });
    expect(part).toMatchObject({
      object: 'refund',
      amount: 2000,
      status: 'succeeded',
      payment_intent: intent,
    });
    expect(part.charge).toMatchObject({ object: 'charge', amount_refunded: 2000, refunded: false });
    const tooMuch = (await stripe.refunds
      .create({ payment_intent: intent, amount: 3001 })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect([tooMuch.statusCode, tooMuch.code, tooMuch.param]).toEqual([400, 'amount_too_large', 'amount']);
    const rest = await stripe.refunds.create({ payment_intent: intent });
    expect(rest.amount).toBe(3000);
    const again = (await stripe.refunds
      .create({ payment_intent: intent })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(again.code).toBe('charge_already_refunded');
    const refunded = fake
      .eventsOf(account, 'charge.refunded')
      .filter((e) => e.data.object.payment_intent === intent);
    expect(refunded.map((e) => [e.data.object.amount_refunded, e.data.object.refunded])).toEqual([
      [2000, false],
      [5000, true],
    ]);
    const listed = await stripe.refunds.list({ payment_intent: intent });
    expect(listed.data.map((r) => r.amount)).toEqual([3000, 2000]);
  });
});

describe('events', () => {
  it('are signed as Stripe signs them: the SDK verifies them, and refuses a wrong secret or a stale timestamp', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const event = fake.completeSession(session.id);
    const body = JSON.stringify(event);
    const header = FakeStripe.signature(body, account.webhookSecret);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Stripe.webhooks.constructEvent(body, header, account.webhookSecret, 300).id).toBe(event.id);
    expect(() => Stripe.webhooks.constructEvent(body, header, 'whsec_another', 300)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const stale = FakeStripe.signature(body, account.webhookSecret, Math.floor(Date.now() / 1000) - 600);
    expect(() => Stripe.webhooks.constructEvent(body, stale, account.webhookSecret, 300)).toThrow(
      /tolerance/,
    );
  });
});
