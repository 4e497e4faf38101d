import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { type FakeAccount, type FakeStripe, startFakeStripe } from '@/test/support/fake-stripe';
import {
  CHECKOUT_EXPIRY_MARGIN_MS,
  CHECKOUT_MAX_LIFETIME_MS,
  CHECKOUT_MIN_LIFETIME_MS,
  checkoutIdempotencyKey,
  checkoutSessionExpiresAt,
  createCheckoutSession,
  expireCheckoutSession,
} from './checkout';

const created = new Date('2026-03-29T00:59:30.250Z');
const plus = (ms: number) => new Date(created.getTime() + ms);
const seconds = (date: Date) => Math.ceil(date.getTime() / 1000);
const MINUTE = 60_000;

describe('checkoutSessionExpiresAt', () => {
  it('is the hold end when the hold lasts longer than Stripe’s 30-minute minimum and the margin', () => {
    for (const hold of [33 * MINUTE, 45 * MINUTE, 6 * 3_600_000, CHECKOUT_MAX_LIFETIME_MS - 3 * MINUTE]) {
      expect(checkoutSessionExpiresAt(plus(hold), created)).toBe(seconds(plus(hold)));
    }
  });

  it('is 30 minutes after creation plus the margin (at most 3 minutes) when the hold ends sooner', () => {
    const floor = seconds(plus(CHECKOUT_MIN_LIFETIME_MS + CHECKOUT_EXPIRY_MARGIN_MS));
    for (const hold of [5_000, 10 * MINUTE, 30 * MINUTE, 31 * MINUTE, 32 * MINUTE]) {
      expect(checkoutSessionExpiresAt(plus(hold), created)).toBe(floor);
    }
    expect(CHECKOUT_EXPIRY_MARGIN_MS).toBeGreaterThan(0);
    expect(CHECKOUT_EXPIRY_MARGIN_MS).toBeLessThanOrEqual(3 * MINUTE);
  });

  it('stays inside Stripe’s 24-hour maximum, with the margin', () => {
    expect(checkoutSessionExpiresAt(plus(30 * 3_600_000), created)).toBe(
      seconds(plus(CHECKOUT_MAX_LIFETIME_MS - CHECKOUT_EXPIRY_MARGIN_MS)),
    );
  });

  it('depends on the creation time it is given, not the clock: a retry sends the same value', () => {
    const hold = plus(5_000);
    expect(checkoutSessionExpiresAt(hold, created)).toBe(checkoutSessionExpiresAt(hold, created));
    expect(checkoutSessionExpiresAt(hold, plus(MINUTE))).toBe(checkoutSessionExpiresAt(hold, created) + 60);
  });

  it('derives the idempotency key from the payment', () => {
    expect(checkoutIdempotencyKey('pay_01J')).toBe('switchboard-checkout-pay_01J');
  });
});

describe('against the stand-in Stripe, through the SDK', () => {
  let fake: FakeStripe;
  let account: FakeAccount;
  beforeAll(async () => {
    fake = await startFakeStripe();
    process.env.STRIPE_API_URL = fake.url;
    resetSettingsCache();
    account = fake.createAccount();
  });
  afterAll(async () => {
    await fake.close();
    delete process.env.STRIPE_API_URL;
    resetSettingsCache();
  });

  const input = (paymentId: string, holdMs = 3_600_000) => ({
    tenantId: '9b2d6c1e-3f4a-4b5c-8d7e-6f5a4b3c2d1e',
    bookingId: `bkg_for_${paymentId}`,
    paymentId,
    amount: 1999,
    currency: 'JPY',
    description: 'Massage',
    holdEndsAt: new Date(Date.now() + holdMs),
    createdAt: new Date(),
  });

  it('creates the session with the payment’s parameters and key', async () => {
    const result = await createCheckoutSession(account.secretKey, input('pay_a'));
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    const session = fake.session(result.session.id);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 1999,
      currency: 'jpy',
      client_reference_id: 'bkg_for_pay_a',
      metadata: { payment_id: 'pay_a', booking_id: 'bkg_for_pay_a' },
      status: 'open',
      url: result.session.url,
    });
    expect(fake.requestsTo('POST', /^\/v1\/checkout\/sessions$/).at(-1)?.idempotencyKey).toBe(
      'switchboard-checkout-pay_a',
    );
  });

  it('expires an open session, reports one already expired or paid, and classifies failures', async () => {
    const open = await createCheckoutSession(account.secretKey, input('pay_b'));
    const paid = await createCheckoutSession(account.secretKey, input('pay_c'));
    if (!open.ok || !paid.ok) throw new Error('no session');
    const completed = fake.completeSession(paid.session.id);
    const awaiting = await createCheckoutSession(account.secretKey, input('pay_g'));
    if (!awaiting.ok) throw new Error('no session');
    fake.completeSessionAwaitingPayment(awaiting.session.id);
    expect(await expireCheckoutSession(account.secretKey, open.session.id)).toEqual({
      ok: true,
      status: 'expired',
    });
    expect(await expireCheckoutSession(account.secretKey, open.session.id)).toEqual({
      ok: true,
      status: 'expired',
    });
    expect(await expireCheckoutSession(account.secretKey, paid.session.id)).toEqual({
      ok: true,
      status: 'complete',
      paid: true,
      paymentIntentId: completed.data.object.payment_intent,
    });
    // A delayed payment method still settling: complete, not (yet) paid.
    expect(await expireCheckoutSession(account.secretKey, awaiting.session.id)).toMatchObject({
      ok: true,
      status: 'complete',
      paid: false,
      paymentIntentId: expect.stringMatching(/^pi_/),
    });
    const unknown = await expireCheckoutSession(account.secretKey, 'cs_test_nobody');
    expect(unknown).toMatchObject({ ok: false, failure: { kind: 'refused' } });
    const stranger = await createCheckoutSession('sk_test_unknownToStripe000000', input('pay_d'));
    expect(stranger).toMatchObject({ ok: false, failure: { kind: 'key_refused' } });
    fake.failNext(/^\/v1\/checkout\/sessions$/, { kind: 'status', status: 500 }, 3);
    expect(await createCheckoutSession(account.secretKey, input('pay_e'))).toMatchObject({
      ok: false,
      failure: { kind: 'unavailable' },
    });
  });

  it('is refused by Stripe when asked for an expiry it does not allow (why the margin exists)', async () => {
    const tooSoon = {
      ...input('pay_f'),
      createdAt: new Date(Date.now() - 5 * MINUTE),
      holdEndsAt: new Date(),
    };
    expect(await createCheckoutSession(account.secretKey, tooSoon)).toMatchObject({
      ok: false,
      failure: { kind: 'refused', param: 'expires_at' },
    });
  });
});
