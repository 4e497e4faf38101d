// Refunds of Stripe payments (POST /payments/{id}/refund {amount?}) through the stand-in Stripe: in
// part and in full, never more than remains, never twice for a retried request, and the ledger follows
// what Stripe reports.
import { describe, expect, it } from 'vitest';
import { stripeClient } from '@/server/stripe/client';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite, fakeStripeSuite, type SuiteTenant } from '../support/harness';
import {
  connectStripe,
  deliverTo,
  givenPaidStripePayment,
  givenStripePayment,
  read,
} from '../support/stripe-fixtures';

const stripe = fakeStripeSuite();
const suite = apiSuite({ agent: true });
const { newTenant } = suite;

const refundRequests = () => stripe.requestsTo('POST', /^\/v1\/refunds$/);
const paymentEvents = async (t: SuiteTenant, paymentId: string) =>
  (await eventsOf(t.tenantId, { objectId: paymentId })).map((e) => e.type);

async function paidTenant(name: string, amount = 5000) {
  const t = await newTenant(name);
  const account = await connectStripe(t, stripe);
  const paid = await givenPaidStripePayment(t, stripe, suite.url, { amount });
  return { t, account, ...paid };
}

describe('refunds through Stripe', () => {
  it('refunds a part, then the rest: refunded_amount follows, the whole makes it refunded (a payment.refunded each)', async () => {
    const { t, account, payment, paymentIntentId } = await paidTenant('Partial then full');
    const before = refundRequests().length;
    const part = await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount: 1500 } });
    expect(part.status, part.text).toBe(200);
    expect(part.body).toMatchObject({ id: payment.id, status: 'succeeded', refunded_amount: 1500 });
    expect(await paymentEvents(t, payment.id)).toEqual([
      'payment.created',
      'payment.succeeded',
      'payment.refunded',
    ]);

    const rest = await t.admin('POST', `/payments/${payment.id}/refund`);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
    const refunded = await eventsOf(t.tenantId, { type: 'payment.refunded', objectId: payment.id });
    expect(refunded.map((e) => e.data)).toEqual([{ object: part.body }, { object: rest.body }]);

    expect(stripe.refundsOf(paymentIntentId).map((r) => r.amount)).toEqual([1500, 3500]);
    expect(
      refundRequests()
        .slice(before)
        .map((r) => [r.apiKey === account.secretKey, r.idempotencyKey, r.params]),
    ).toEqual([
      [
        true,
        `switchboard-refund-${payment.id}-after-0`,
        {
          payment_intent: paymentIntentId,
          amount: '1500',
          metadata: {
            tenant_id: t.tenantId,
            payment_id: payment.id,
            requested_by: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
          },
          expand: ['charge'],
        },
      ],
      [
        true,
        `switchboard-refund-${payment.id}-after-1500`,
        {
          payment_intent: paymentIntentId,
          amount: '3500',
          metadata: {
            tenant_id: t.tenantId,
            payment_id: payment.id,
            requested_by: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
          },
          expand: ['charge'],
        },
      ],
    ]);

    // Stripe's charge.refunded for these refunds, arriving afterwards, changes nothing.
    for (const event of stripe.eventsOf(account, 'charge.refunded')) {
      await deliverTo(stripe, suite.url, t, event, 'no_change');
    }
    expect(await paymentEvents(t, payment.id)).toEqual([
      'payment.created',
      'payment.succeeded',
      'payment.refunded',
      'payment.refunded',
    ]);
  });

  it('refuses more than remains with 422 (nothing asked of Stripe, nothing changed)', async () => {
    const { t, payment } = await paidTenant('Too much', 3000);
    await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount: 1000 } });
    const before = [refundRequests().length, await read(t.admin, payment.id)];
    for (const amount of [2001, 3000]) {
      const res = await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount } });
      expectProblemCode(res, 422, 'validation_failed');
      expect(res.body.errors).toEqual([
        { path: 'amount', message: 'At most 2000 of 3000 remains to be refunded' },
      ]);
    }
    for (const amount of [0, -5, 1.5, '100']) {
      expectProblemCode(
        await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount } }),
        422,
        'validation_failed',
      );
    }
    expect([refundRequests().length, await read(t.admin, payment.id)]).toEqual(before);
  });

  it('refuses a pending, failed or refunded Stripe payment with 409 invalid_transition', async () => {
    const t = await newTenant('States');
    await connectStripe(t, stripe);
    const pending = await givenStripePayment(t);
    const failed = await givenStripePayment(t);
    await deliverTo(stripe, suite.url, t, stripe.expireSession(failed.sessionId), 'applied');
    const refunded = await givenPaidStripePayment(t, stripe, suite.url);
    await t.admin('POST', `/payments/${refunded.payment.id}/refund`);
    const before = refundRequests().length;
    for (const { payment } of [pending, failed, refunded]) {
      expectProblemCode(await t.admin('POST', `/payments/${payment.id}/refund`), 409, 'invalid_transition');
    }
    expect(refundRequests().length).toBe(before);
  });

  it('is never moved by hand: /succeed and /fail on a Stripe payment are 409 invalid_transition', async () => {
    const t = await newTenant('By hand');
    await connectStripe(t, stripe);
    const { payment } = await givenStripePayment(t);
    for (const action of ['succeed', 'fail']) {
      const res = await t.admin('POST', `/payments/${payment.id}/${action}`);
      expectProblemCode(res, 409, 'invalid_transition');
      expect(res.body.detail).toContain("follows Stripe's webhooks");
    }
    expect(await read(t.admin, payment.id)).toEqual(payment);
  });
});

describe('a retried refund never refunds twice', () => {
  it('without Idempotency-Key: the answer is lost, the client retries, Stripe replays the one refund', async () => {
    const { t, payment, paymentIntentId } = await paidTenant('Lost answer');
    // Stripe refunds, but every answer is cut off (the SDK tries 3 times, each replayed by Stripe).
    stripe.failNext(/^\/v1\/refunds$/, { kind: 'drop' }, 3, 'POST');
    const lost = await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount: 1000 } });
    expectProblemCode(lost, 502, 'payment_provider_unavailable');
    expect(await read(t.admin, payment.id)).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
    expect(stripe.refundsOf(paymentIntentId)).toHaveLength(1);

    const retried = await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount: 1000 } });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.refunded_amount).toBe(1000);
    expect(stripe.refundsOf(paymentIntentId).map((r) => r.amount)).toEqual([1000]);
    const attempts = refundRequests().filter(
      (r) => r.idempotencyKey === `switchboard-refund-${payment.id}-after-0`,
    );
    expect(attempts.map((r) => r.replayed)).toEqual([false, true, true, true]);
  });

  it('with Idempotency-Key: a retry after a failure refunds once; a retry after success is replayed by the API', async () => {
    const { t, payment, paymentIntentId } = await paidTenant('Keyed retry');
    const headers = { 'Idempotency-Key': 'refund-order-77' };
    stripe.failNext(/^\/v1\/refunds$/, { kind: 'drop' }, 3, 'POST');
    const lost = await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount: 700 }, headers });
    expectProblemCode(lost, 502, 'payment_provider_unavailable');
    const retried = await t.admin('POST', `/payments/${payment.id}/refund`, {
      body: { amount: 700 },
      headers,
    });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.refunded_amount).toBe(700);
    const stripeCalls = refundRequests().length;
    const again = await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount: 700 }, headers });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(refundRequests().length).toBe(stripeCalls);
    expect(stripe.refundsOf(paymentIntentId).map((r) => r.amount)).toEqual([700]);
    const keys = new Set(
      refundRequests()
        .filter((r) => r.params.payment_intent === paymentIntentId)
        .map((r) => r.idempotencyKey),
    );
    expect([...keys]).toEqual([
      expect.stringMatching(new RegExp(`^switchboard-refund-${payment.id}-key-[0-9a-f]{32}$`)),
    ]);
  });

  it('two refunds asked at the same time under different keys are two refunds, and the ledger counts both', async () => {
    const { t, payment, paymentIntentId } = await paidTenant('Concurrent', 5000);
    const answers = await Promise.all(
      ['one', 'two'].map((key) =>
        t.admin('POST', `/payments/${payment.id}/refund`, {
          body: { amount: 1000 },
          headers: { 'Idempotency-Key': `concurrent-${key}` },
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(stripe.refundsOf(paymentIntentId).map((r) => r.amount)).toEqual([1000, 1000]);
    expect((await read(t.admin, payment.id)).refunded_amount).toBe(2000);
  });
});

describe('when Stripe refuses or is away', () => {
  it("a ledger behind Stripe (refunded in Stripe's dashboard): 422, then the webhook brings it up to date", async () => {
    const { t, account, payment, paymentIntentId } = await paidTenant('Behind', 3000);
    await stripeClient(account.secretKey).refunds.create({ payment_intent: paymentIntentId });
    const res = await t.admin('POST', `/payments/${payment.id}/refund`);
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors[0].message).toContain('has already been refunded');
    const [event] = stripe.eventsOf(account, 'charge.refunded').slice(-1);
    await deliverTo(stripe, suite.url, t, event, 'applied');
    expect(await read(t.admin, payment.id)).toMatchObject({ status: 'refunded', refunded_amount: 3000 });
  });

  it('Stripe failing (5xx) answers 502 and records nothing', async () => {
    const { t, payment, paymentIntentId } = await paidTenant('Stripe 500');
    stripe.failNext(/^\/v1\/refunds$/, { kind: 'status', status: 500 }, 3, 'POST');
    expectProblemCode(
      await t.admin('POST', `/payments/${payment.id}/refund`),
      502,
      'payment_provider_unavailable',
    );
    expect(await read(t.admin, payment.id)).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
    expect(stripe.refundsOf(paymentIntentId)).toEqual([]);
  });

  it('a secret key Stripe no longer accepts answers 422 payment_provider_refused', async () => {
    const { t, account, payment } = await paidTenant('Rolled key');
    stripe.revokeKey(account);
    const res = await t.admin('POST', `/payments/${payment.id}/refund`);
    expectProblemCode(res, 422, 'payment_provider_refused');
    expect(res.body.detail).toContain('connect Stripe again');
    expect((await read(t.admin, payment.id)).refunded_amount).toBe(0);
  });

  it('Stripe disconnected: 409 payment_provider_missing, nothing asked of Stripe', async () => {
    const { t, payment } = await paidTenant('Disconnected');
    expect((await t.admin('DELETE', '/payment-providers/stripe')).status).toBe(204);
    const before = refundRequests().length;
    expectProblemCode(
      await t.admin('POST', `/payments/${payment.id}/refund`),
      409,
      'payment_provider_missing',
    );
    expect(refundRequests().length).toBe(before);
    expect((await read(t.admin, payment.id)).status).toBe('succeeded');
  });

  it('agents may not refund', async () => {
    const { t, payment } = await paidTenant('Agent');
    expectProblemCode(await t.agent('POST', `/payments/${payment.id}/refund`), 403, 'forbidden');
  });
});
