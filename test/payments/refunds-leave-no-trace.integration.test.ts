// Every refund leaves a trace (contract §21): each refund, full or partial, made through the API, by the
// service itself or in Stripe's dashboard, is in the audit log once (action payment.refunded, target
// the payment, details {amount, currency}; Stripe's own have the actor {type: "stripe"}) and emits
// payment.refunded once (data.object.refunded_amount; status succeeded while partial), however often
// the request is retried or replayed and however often Stripe echoes it back.
import { describe, expect, it } from 'vitest';
import { stripeClient } from '@/server/stripe/client';
import { eventsOf } from '../support/domain-fixtures';
import { apiSuite, fakeStripeSuite, type SuiteTenant } from '../support/harness';
import { connectStripe, deliverTo, givenPaidStripePayment, read } from '../support/stripe-fixtures';

const stripe = fakeStripeSuite();
const suite = apiSuite();
const { newTenant } = suite;

async function paidTenant(name: string, amount = 5000) {
  const t = await newTenant(name);
  const account = await connectStripe(t, stripe);
  const paid = await givenPaidStripePayment(t, stripe, suite.url, { amount });
  return { t, account, ...paid };
}

/** The tenant's payment.refunded audit entries of a payment, oldest first. */
async function refundEntries(t: SuiteTenant, paymentId: string) {
  const res = await t.admin('GET', '/audit-log?action=payment.refunded&limit=100');
  expect(res.status, res.text).toBe(200);
  type Entry = {
    actor: { type: string; id?: string };
    target: { id: string };
    details: Record<string, unknown>;
  };
  return (res.body.data as Entry[]).filter((e) => e.target.id === paymentId).reverse();
}
const refundEvents = async (t: SuiteTenant, paymentId: string) =>
  (await eventsOf(t.tenantId, { type: 'payment.refunded', objectId: paymentId })).map(
    (e) => (e.data as { object: unknown }).object,
  );

/** Every charge.refunded Stripe recorded for the account, delivered again, each also under a new event id. */
async function echoAll(t: SuiteTenant, account: Parameters<typeof stripe.eventsOf>[0]) {
  for (const event of stripe.eventsOf(account, 'charge.refunded')) {
    await deliverTo(stripe, suite.url, t, event);
    await deliverTo(stripe, suite.url, t, event, 'duplicate');
    await deliverTo(
      stripe,
      suite.url,
      t,
      stripe.makeEvent(account, 'charge.refunded', event.data.object),
      'no_change',
    );
  }
}

describe('security finding 4: refunds leave no trace', () => {
  it('a partial refund through the API: audited once with its amount, one payment.refunded, however often replayed or echoed', async () => {
    const { t, account, payment } = await paidTenant('Partial refunds audited');
    const headers = { 'Idempotency-Key': 'refund-part-1' };
    const part = await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount: 1200 }, headers });
    expect(part.status, part.text).toBe(200);
    expect(part.body).toMatchObject({ status: 'succeeded', refunded_amount: 1200 });
    // The same request again: the API replays its answer; Stripe's webhooks for it, again and again.
    const again = await t.admin('POST', `/payments/${payment.id}/refund`, {
      body: { amount: 1200 },
      headers,
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    await echoAll(t, account);

    const entries = await refundEntries(t, payment.id);
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'payment.refunded',
        actor: { type: 'api_key', id: expect.stringMatching(/^key_/) },
        target: { type: 'payment', id: payment.id },
        details: { amount: 1200, currency: payment.currency },
      }),
    ]);
    expect(await refundEvents(t, payment.id)).toEqual([part.body]);
    expect(await read(t.admin, payment.id)).toEqual(part.body);
  });

  it('a refund whose answer was lost and whose webhook came first: audited once, as the caller’s, when retried', async () => {
    const { t, account, payment, paymentIntentId } = await paidTenant('Lost answer audited');
    stripe.failNext(/^\/v1\/refunds$/, { kind: 'drop' }, 3, 'POST');
    const headers = { 'Idempotency-Key': 'refund-lost-1' };
    const lost = await t.admin('POST', `/payments/${payment.id}/refund`, { body: { amount: 800 }, headers });
    expect(lost.status).toBe(502);
    // Stripe refunded: its webhook reaches us before the client retries.
    const [echo] = stripe.eventsOf(account, 'charge.refunded').slice(-1);
    await deliverTo(stripe, suite.url, t, echo, 'applied');
    const retried = await t.admin('POST', `/payments/${payment.id}/refund`, {
      body: { amount: 800 },
      headers,
    });
    expect(retried.status, retried.text).toBe(200);
    expect(stripe.refundsOf(paymentIntentId).map((r) => r.amount)).toEqual([800]);
    await echoAll(t, account);

    const entries = await refundEntries(t, payment.id);
    expect(entries.map((e) => [e.actor.type, e.details])).toEqual([
      ['api_key', { amount: 800, currency: payment.currency }],
    ]);
    expect(await refundEvents(t, payment.id)).toEqual([retried.body]);
  });

  it('refunds made in Stripe’s dashboard: each audited once with the actor stripe, each one payment.refunded', async () => {
    const { t, account, payment, paymentIntentId } = await paidTenant('Dashboard refunds audited');
    const dashboard = stripeClient(account.secretKey);
    await dashboard.refunds.create({ payment_intent: paymentIntentId, amount: 1000 });
    await dashboard.refunds.create({ payment_intent: paymentIntentId, amount: 1500 });
    await echoAll(t, account);
    // Then the rest through the API.
    const rest = await t.admin('POST', `/payments/${payment.id}/refund`);
    expect(rest.body).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
    await echoAll(t, account);

    const entries = await refundEntries(t, payment.id);
    expect(entries.map((e) => [e.actor.type, e.details.amount])).toEqual([
      ['stripe', 1000],
      ['stripe', 1500],
      ['api_key', 2500],
    ]);
    expect(entries[0].actor).toEqual({ type: 'stripe' });
    const events = (await refundEvents(t, payment.id)) as { status: string; refunded_amount: number }[];
    expect(events.map((e) => [e.status, e.refunded_amount])).toEqual([
      ['succeeded', 1000],
      ['succeeded', 2500],
      ['refunded', 5000],
    ]);
  });

  it('a manual payment’s refund is audited with its amount', async () => {
    const t = await newTenant('Manual refund audited');
    const created = await t.admin('POST', '/payments', { body: { amount: 4200, currency: 'EUR' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect((await t.admin('POST', `/payments/${id}/succeed`, { body: {} })).status).toBe(200);
    const refunded = await t.admin('POST', `/payments/${id}/refund`);
    expect(refunded.body).toMatchObject({ status: 'refunded', refunded_amount: 4200 });
    expect(await refundEntries(t, id)).toEqual([
      expect.objectContaining({
        actor: { type: 'api_key', id: expect.stringMatching(/^key_/) },
        details: { amount: 4200, currency: created.body.currency },
      }),
    ]);
    expect(await refundEvents(t, id)).toEqual([refunded.body]);
  });
});
