// Inbound Stripe webhooks (POST /payment-providers/stripe/webhook/{tenant_id}): verified with the
// official SDK against the tenant's own signing secret, each event id applied once, in any order.
// Events come from the stand-in Stripe (test/support/fake-stripe.ts), signed exactly as Stripe signs them.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pgPool } from '@/server/db/pool';
import { stripeClient } from '@/server/stripe/client';
import { eventsOf } from '../support/domain-fixtures';
import type { FakeAccount, StripeEvent } from '../support/fake-stripe';
import { apiSuite, fakeStripeSuite, type SuiteTenant } from '../support/harness';
import {
  connectStripe,
  deliverTo,
  givenPaidStripePayment,
  givenStripePayment,
  read,
  stripeWebhookPath,
} from '../support/stripe-fixtures';

const stripe = fakeStripeSuite();
const suite = apiSuite({ other: true });
const { tenant: a, other: b, newTenant } = suite;

let accountA: FakeAccount | undefined;
async function connectedA(): Promise<FakeAccount> {
  accountA ??= await connectStripe(a, stripe);
  return accountA;
}

const deliver = (t: { tenantId: string }, event: StripeEvent, outcome?: string) =>
  deliverTo(stripe, suite.url, t, event, outcome);
const urlOf = (tenantId: string) => `${suite.url}${stripeWebhookPath(tenantId)}`;

/** Everything a webhook could change for a tenant: its payments, events and recorded Stripe events. */
async function stateOf(tenantId: string) {
  const { rows } = await pgPool().query(
    `select
       (select coalesce(json_agg(p order by p.id), '[]'::json) from payments p where tenant_id = $1)::text as payments,
       (select count(*) from events where tenant_id = $1)::int as events,
       (select count(*) from stripe_events where tenant_id = $1)::int as stripe_events`,
    [tenantId],
  );
  return rows[0];
}

async function stripeEventRow(tenantId: string, eventId: string) {
  const { rows } = await pgPool().query(
    'select * from stripe_events where tenant_id = $1 and event_id = $2',
    [tenantId, eventId],
  );
  return rows[0];
}

const paymentEvents = async (t: SuiteTenant, paymentId: string) =>
  (await eventsOf(t.tenantId, { objectId: paymentId })).map((e) => e.type);

describe('signature and routing: anything unverified is 400 and changes nothing', () => {
  async function refused(
    t: SuiteTenant,
    send: (event: StripeEvent) => Promise<{ status: number; body: unknown }>,
  ) {
    await connectedA();
    const { sessionId } = await givenStripePayment(t);
    const event = stripe.completeSession(sessionId);
    const before = [await stateOf(a.tenantId), await stateOf(b.tenantId)];
    const res = await send(event);
    expect(res).toMatchObject({
      status: 400,
      body: { status: 400, code: 'signature_verification_failed', request_id: expect.any(String) },
    });
    expect([await stateOf(a.tenantId), await stateOf(b.tenantId)]).toEqual(before);
    return res;
  }

  it('a missing Stripe-Signature', async () => {
    await refused(a, (e) => stripe.deliver(e, urlOf(a.tenantId), { signature: null }));
  });

  it('a signature made with another secret', async () => {
    await refused(a, (e) => stripe.deliver(e, urlOf(a.tenantId), { secret: 'whsec_notTheTenantsSecret01' }));
  });

  it('a signature older than 5 minutes (a replay)', async () => {
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    await refused(a, (e) => stripe.deliver(e, urlOf(a.tenantId), { timestamp: tenMinutesAgo }));
  });

  it('a body changed after signing', async () => {
    await refused(a, (e) =>
      stripe.deliver(e, urlOf(a.tenantId), { tamper: (body) => body.replace('"paid"', '"unpaid"') }),
    );
  });

  it('a header that is not a Stripe signature', async () => {
    await refused(a, (e) => stripe.deliver(e, urlOf(a.tenantId), { signature: 't=1,v1=deadbeef' }));
  });

  it("the tenant's own event sent to another tenant's URL (connected or not), an unknown tenant, a bad id", async () => {
    const c = await newTenant('C');
    await connectStripe(c, stripe);
    for (const target of [c.tenantId, b.tenantId, randomUUID(), 'not-a-tenant']) {
      await refused(a, (e) => stripe.deliver(e, urlOf(target)));
    }
  });

  it('a correctly signed body that is not JSON', async () => {
    const account = await connectedA();
    const res = await stripe.deliver({ id: 'evt_x' } as StripeEvent, urlOf(a.tenantId), {
      body: 'not json',
      secret: account.webhookSecret,
    });
    expect([res.status, res.body.code]).toEqual([400, 'signature_verification_failed']);
  });
});

describe('applying events', () => {
  it('checkout.session.completed (paid): the payment succeeds, once, with payment.succeeded', async () => {
    await connectedA();
    const { payment, sessionId } = await givenStripePayment(a);
    const event = stripe.completeSession(sessionId);
    await deliver(a, event, 'applied');
    const paid = await read(a.admin, payment.id);
    expect(paid).toMatchObject({
      status: 'succeeded',
      provider: 'stripe',
      provider_ref: sessionId,
      refunded_amount: 0,
    });
    const [succeeded] = await eventsOf(a.tenantId, { type: 'payment.succeeded', objectId: payment.id });
    expect(succeeded.data).toEqual({ object: paid });
    expect(await stripeEventRow(a.tenantId, event.id)).toMatchObject({
      type: 'checkout.session.completed',
      outcome: 'applied',
      payment_id: payment.id,
    });

    const before = await stateOf(a.tenantId);
    await deliver(a, event, 'duplicate');
    expect(await stateOf(a.tenantId)).toEqual(before);
    expect(await paymentEvents(a, payment.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('applies an event delivered several times at once exactly once', async () => {
    await connectedA();
    const { payment, sessionId } = await givenStripePayment(a);
    const event = stripe.completeSession(sessionId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(a, event)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.body.outcome).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await paymentEvents(a, payment.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('another event saying the same thing changes nothing (no_change)', async () => {
    const account = await connectedA();
    const { payment, sessionId } = await givenStripePayment(a);
    const completed = stripe.completeSession(sessionId);
    await deliver(a, completed, 'applied');
    const resent = stripe.makeEvent(account, completed.type, completed.data.object);
    await deliver(a, resent, 'no_change');
    expect(await paymentEvents(a, payment.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('a delayed payment method: completed unpaid changes nothing, then async_payment_succeeded pays', async () => {
    await connectedA();
    const { payment, sessionId } = await givenStripePayment(a);
    await deliver(a, stripe.completeSessionAwaitingPayment(sessionId), 'no_change');
    expect((await read(a.admin, payment.id)).status).toBe('pending');
    await deliver(a, stripe.succeedDelayedPayment(sessionId), 'applied');
    expect((await read(a.admin, payment.id)).status).toBe('succeeded');
    expect(await paymentEvents(a, payment.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('checkout.session.async_payment_failed and checkout.session.expired: the payment fails, with payment.failed', async () => {
    await connectedA();
    const delayed = await givenStripePayment(a);
    stripe.completeSessionAwaitingPayment(delayed.sessionId);
    await deliver(a, stripe.failDelayedPayment(delayed.sessionId), 'applied');
    const expired = await givenStripePayment(a);
    await deliver(a, stripe.expireSession(expired.sessionId), 'applied');
    for (const { payment } of [delayed, expired]) {
      const failed = await read(a.admin, payment.id);
      expect(failed.status).toBe('failed');
      const [event] = await eventsOf(a.tenantId, { type: 'payment.failed', objectId: payment.id });
      expect(event.data).toEqual({ object: failed });
    }
  });

  it('never fails a paid payment, whatever arrives later', async () => {
    const account = await connectedA();
    const { payment, sessionId } = await givenPaidStripePayment(a, stripe, suite.url);
    const contradiction = stripe.makeEvent(account, 'checkout.session.expired', {
      ...stripe.session(sessionId),
      status: 'expired',
    });
    await deliver(a, contradiction, 'no_change');
    expect((await read(a.admin, payment.id)).status).toBe('succeeded');
  });

  it('charge.refunded: a part keeps it succeeded with refunded_amount; the whole makes it refunded (a payment.refunded each)', async () => {
    const account = await connectedA();
    const { payment, paymentIntentId } = await givenPaidStripePayment(a, stripe, suite.url, { amount: 5000 });
    const api = stripeClient(account.secretKey);
    await api.refunds.create({ payment_intent: paymentIntentId, amount: 1500 }); // from Stripe's dashboard
    const [partial] = stripe.eventsOf(account, 'charge.refunded').slice(-1);
    await deliver(a, partial, 'applied');
    const part = await read(a.admin, payment.id);
    expect(part).toMatchObject({ status: 'succeeded', refunded_amount: 1500 });
    expect(await paymentEvents(a, payment.id)).toEqual([
      'payment.created',
      'payment.succeeded',
      'payment.refunded',
    ]);

    await api.refunds.create({ payment_intent: paymentIntentId });
    const [full] = stripe.eventsOf(account, 'charge.refunded').slice(-1);
    await deliver(a, full, 'applied');
    const refunded = await read(a.admin, payment.id);
    expect(refunded).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
    const events = await eventsOf(a.tenantId, { type: 'payment.refunded', objectId: payment.id });
    expect(events.map((e) => e.data)).toEqual([{ object: part }, { object: refunded }]);

    // The partial report arriving again, late, changes nothing.
    const late = stripe.makeEvent(account, 'charge.refunded', partial.data.object);
    await deliver(a, late, 'no_change');
    expect(await read(a.admin, payment.id)).toEqual(refunded);
  });

  it('ignores (200) types it does not follow, sessions that are not its payments, and unreadable objects', async () => {
    const account = await connectedA();
    const before = await stateOf(a.tenantId);
    await deliver(
      a,
      stripe.makeEvent(account, 'customer.created', { object: 'customer', id: 'cus_1' }),
      'ignored',
    );
    await deliver(
      a,
      stripe.makeEvent(account, 'refund.created', { object: 'refund', id: 're_1' }),
      'ignored',
    );
    const unknownSession = stripe.makeEvent(account, 'checkout.session.completed', {
      object: 'checkout.session',
      id: 'cs_test_notOurs',
      payment_status: 'paid',
      payment_intent: 'pi_notOurs',
      metadata: {},
    });
    await deliver(a, unknownSession, 'ignored');
    await deliver(a, stripe.makeEvent(account, 'charge.refunded', { object: 'charge' }), 'ignored');
    const after = await stateOf(a.tenantId);
    expect(after.payments).toEqual(before.payments);
    expect(after.events).toBe(before.events);
    // Followed types are remembered (so a repeat is a duplicate); the others are not kept at all.
    expect(after.stripe_events).toBe(before.stripe_events + 2);
  });

  it('ignores a session whose metadata names another payment, and events of another Stripe account', async () => {
    const account = await connectedA();
    const { payment, sessionId } = await givenStripePayment(a);
    const session = {
      ...stripe.session(sessionId),
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_x',
    };
    const forged = stripe.makeEvent(account, 'checkout.session.completed', {
      ...session,
      metadata: { ...session.metadata, payment_id: 'pay_someoneElse' },
    });
    await deliver(a, forged, 'ignored');
    const platform = {
      ...stripe.makeEvent(account, 'checkout.session.completed', session),
      account: 'acct_platform',
    };
    await deliver(a, platform, 'ignored');
    expect((await read(a.admin, payment.id)).status).toBe('pending');
  });

  it("never reaches another tenant's payment, even with a valid signature of its own", async () => {
    const account = await connectedA();
    await connectStripe(b, stripe);
    const theirs = await givenStripePayment(b);
    const before = await stateOf(b.tenantId);
    const aimed = stripe.makeEvent(account, 'checkout.session.completed', {
      ...stripe.session(theirs.sessionId),
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_aimed',
    });
    await deliver(a, aimed, 'ignored');
    expect(await stateOf(b.tenantId)).toEqual(before);
  });
});

describe('events in any order', () => {
  it('a charge.refunded before its completion waits (deferred), then applies with the completion', async () => {
    const account = await connectedA();
    const { payment, sessionId } = await givenStripePayment(a, { amount: 3000 });
    const completed = stripe.completeSession(sessionId);
    const intent = completed.data.object.payment_intent;
    const api = stripeClient(account.secretKey);
    await api.refunds.create({ payment_intent: intent });
    const [refunded] = stripe.eventsOf(account, 'charge.refunded').slice(-1);

    await deliver(a, refunded, 'deferred');
    expect(await read(a.admin, payment.id)).toMatchObject({ status: 'pending', refunded_amount: 0 });
    expect(await paymentEvents(a, payment.id)).toEqual(['payment.created']);
    await deliver(a, refunded, 'duplicate');

    await deliver(a, completed, 'applied');
    expect(await read(a.admin, payment.id)).toMatchObject({ status: 'refunded', refunded_amount: 3000 });
    expect(await paymentEvents(a, payment.id)).toEqual([
      'payment.created',
      'payment.succeeded',
      'payment.refunded',
    ]);
    expect(await stripeEventRow(a.tenantId, refunded.id)).toMatchObject({
      outcome: 'applied',
      payment_id: payment.id,
    });
  });

  it('two partial refunds reported before the completion, in reverse order: the larger total counts, each refund once', async () => {
    const account = await connectedA();
    const { payment, sessionId } = await givenStripePayment(a, { amount: 5000 });
    const completed = stripe.completeSession(sessionId);
    const intent = completed.data.object.payment_intent;
    const api = stripeClient(account.secretKey);
    await api.refunds.create({ payment_intent: intent, amount: 1000 });
    await api.refunds.create({ payment_intent: intent, amount: 2000 });
    const [first, second] = stripe.eventsOf(account, 'charge.refunded').slice(-2);
    await deliver(a, second, 'deferred');
    await deliver(a, first, 'deferred');
    await deliver(a, completed, 'applied');
    expect(await read(a.admin, payment.id)).toMatchObject({ status: 'succeeded', refunded_amount: 3000 });
    expect(await paymentEvents(a, payment.id)).toEqual([
      'payment.created',
      'payment.succeeded',
      'payment.refunded',
      'payment.refunded',
    ]);
  });

  it('an expiry after the completion and a completion after the expiry change nothing', async () => {
    const account = await connectedA();
    const paid = await givenPaidStripePayment(a, stripe, suite.url);
    const lateExpiry = stripe.makeEvent(account, 'checkout.session.expired', {
      ...stripe.session(paid.sessionId),
      status: 'expired',
    });
    await deliver(a, lateExpiry, 'no_change');
    expect((await read(a.admin, paid.payment.id)).status).toBe('succeeded');

    const lapsed = await givenStripePayment(a);
    await deliver(a, stripe.expireSession(lapsed.sessionId), 'applied');
    const lateCompletion = stripe.makeEvent(account, 'checkout.session.completed', {
      ...stripe.session(lapsed.sessionId),
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_impossible',
    });
    await deliver(a, lateCompletion, 'no_change');
    expect((await read(a.admin, lapsed.payment.id)).status).toBe('failed');
  });
});
