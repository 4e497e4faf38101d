// The Checkout Session of a paid booking's payment (server/domain/payments/checkout/session.ts and
// server/stripe/checkout.ts) against the stand-in Stripe: exactly the parameters a paid booking needs,
// nothing stored when Stripe is not connected or not reachable, and the session withdrawn when a hold
// runs out or the booking is not stored.
import { describe, expect, it } from 'vitest';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import {
  abandonCheckout,
  expireCheckout,
  prepareCheckout,
  recordCheckoutPayment,
} from '@/server/domain/payments/checkout/session';
import { AppError } from '@/server/lib/errors';
import { createCheckoutSession } from '@/server/stripe/checkout';
import { givenBooking } from '../support/builders';
import { eventsOf } from '../support/domain-fixtures';
import { apiSuite, fakeStripeSuite, type SuiteTenant } from '../support/harness';
import {
  connectStripe,
  deliverTo,
  givenPaidStripePayment,
  givenStripePayment,
  read,
} from '../support/stripe-fixtures';

const stripe = fakeStripeSuite();
const suite = apiSuite();
const { newTenant } = suite;

const sessionRequests = () => stripe.requestsTo('POST', /^\/v1\/checkout\/sessions$/);
const system = (t: SuiteTenant) => operationContext(t.tenantId, SYSTEM_ACTOR);

async function paymentsOf(t: SuiteTenant) {
  return (await t.admin('GET', '/payments?limit=100')).body.data;
}

describe('creating the Checkout Session of a payment', () => {
  it('sends mode, amount, currency, client_reference_id, metadata, expires_at and an idempotency key from the payment', async () => {
    const t = await newTenant('Session');
    const account = await connectStripe(t, stripe);
    const booking = await givenBooking(t.admin, 'pending');
    const holdEndsAt = new Date(Date.now() + 45 * 60_000);
    const prepared = await prepareCheckout(system(t), {
      bookingId: booking.id,
      amount: 2500,
      currency: 'EUR',
      holdEndsAt,
      description: 'Deposit: Check-up',
      customerEmail: 'ada@example.test',
    });
    const [request] = sessionRequests().slice(-1);
    const metadata = { tenant_id: t.tenantId, booking_id: booking.id, payment_id: prepared.paymentId };
    expect(request).toMatchObject({
      apiKey: account.secretKey,
      idempotencyKey: `switchboard-checkout-${prepared.paymentId}`,
      params: {
        mode: 'payment',
        line_items: [
          {
            quantity: '1',
            price_data: { currency: 'eur', unit_amount: '2500', product_data: { name: 'Deposit: Check-up' } },
          },
        ],
        client_reference_id: booking.id,
        metadata,
        payment_intent_data: { metadata },
        expires_at: String(Math.ceil(holdEndsAt.getTime() / 1000)),
        customer_email: 'ada@example.test',
      },
    });
    expect(prepared.paymentId).toMatch(/^pay_/);
    expect(prepared.session.id).toMatch(/^cs_test_/);
    expect(prepared.session.expiresAt.getTime()).toBe(Math.ceil(holdEndsAt.getTime() / 1000) * 1000);
    // Nothing is stored until the booking's transaction records it.
    expect(await paymentsOf(t)).toEqual([]);

    const payment = await transaction(system(t), (tx) => recordCheckoutPayment(tx, prepared));
    expect(payment).toMatchObject({
      id: prepared.paymentId,
      booking_id: booking.id,
      amount: 2500,
      currency: 'EUR',
      status: 'pending',
      provider: 'stripe',
      provider_ref: prepared.session.id,
      checkout_url: stripe.session(prepared.session.id).url,
      refunded_amount: 0,
    });
    expect(await read(t.admin, payment.id)).toEqual(payment);
    const [created] = await eventsOf(t.tenantId, { type: 'payment.created', objectId: payment.id });
    expect(created.data).toEqual({ object: payment });
  });

  it('asks for Stripe’s minimum (30 minutes after creation plus 2) when the hold is shorter', async () => {
    const t = await newTenant('Short hold');
    await connectStripe(t, stripe);
    const booking = await givenBooking(t.admin, 'pending');
    const started = Date.now();
    const prepared = await prepareCheckout(system(t), {
      bookingId: booking.id,
      amount: 1000,
      currency: 'USD',
      holdEndsAt: new Date(started + 5_000),
      description: 'Hold of 5 seconds',
    });
    const expected = Math.ceil((prepared.createdAt.getTime() + 32 * 60_000) / 1000);
    expect(Number(sessionRequests().at(-1)?.params.expires_at)).toBe(expected);
    expect(stripe.session(prepared.session.id).expires_at).toBe(expected);
  });

  it('a retried creation for the same payment is replayed by Stripe: one session', async () => {
    const t = await newTenant('Retry');
    const account = await connectStripe(t, stripe);
    const input = {
      tenantId: t.tenantId,
      bookingId: 'bkg_retry',
      paymentId: 'pay_retry',
      amount: 900,
      currency: 'EUR',
      description: 'Retry',
      holdEndsAt: new Date(Date.now() + 3_600_000),
      createdAt: new Date(),
    };
    const first = await createCheckoutSession(account.secretKey, input);
    const again = await createCheckoutSession(account.secretKey, input);
    expect(first.ok && again.ok && first.session.id === again.session.id).toBe(true);
    expect(
      sessionRequests()
        .slice(-2)
        .map((r) => r.replayed),
    ).toEqual([false, true]);
  });

  it('without Stripe connected: 409 payment_provider_missing, nothing asked, nothing stored', async () => {
    const t = await newTenant('No Stripe');
    const booking = await givenBooking(t.admin, 'pending');
    const before = stripe.requests.length;
    const error = await prepareCheckout(system(t), {
      bookingId: booking.id,
      amount: 1000,
      currency: 'EUR',
      holdEndsAt: new Date(Date.now() + 3_600_000),
      description: 'X',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('payment_provider_missing');
    expect(stripe.requests.length).toBe(before);
    expect(await paymentsOf(t)).toEqual([]);
  });

  it('with Stripe out of reach: 502 payment_provider_unavailable, nothing stored', async () => {
    const t = await newTenant('Stripe away');
    await connectStripe(t, stripe);
    const booking = await givenBooking(t.admin, 'pending');
    stripe.failNext(/^\/v1\/checkout\/sessions$/, { kind: 'status', status: 503 }, 3, 'POST');
    const error = await prepareCheckout(system(t), {
      bookingId: booking.id,
      amount: 1000,
      currency: 'EUR',
      holdEndsAt: new Date(Date.now() + 3_600_000),
      description: 'X',
    }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('payment_provider_unavailable');
    expect(await paymentsOf(t)).toEqual([]);
  });
});

describe('withdrawing a session', () => {
  it('expires an open session when its hold runs out; its checkout.session.expired then fails the payment', async () => {
    const t = await newTenant('Hold over');
    const account = await connectStripe(t, stripe);
    const { payment, sessionId } = await givenStripePayment(t);
    const stored = await system(t).db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(await expireCheckout(system(t), stored)).toEqual({ status: 'expired' });
    expect(stripe.session(sessionId).status).toBe('expired');
    const [expired] = stripe.eventsOf(account, 'checkout.session.expired').slice(-1);
    await deliverTo(stripe, suite.url, t, expired, 'applied');
    expect((await read(t.admin, payment.id)).status).toBe('failed');
    // Asked again (a retried job): still expired, no error.
    expect(await expireCheckout(system(t), stored)).toEqual({ status: 'expired' });
  });

  it('answers complete for a session paid before the hold ran out (its completion confirms it)', async () => {
    const t = await newTenant('Paid first');
    await connectStripe(t, stripe);
    const { payment, paymentIntentId } = await givenPaidStripePayment(t, stripe, suite.url);
    const stored = await system(t).db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(await expireCheckout(system(t), stored)).toEqual({
      status: 'complete',
      paid: true,
      paymentIntentId,
    });
    expect((await read(t.admin, payment.id)).status).toBe('succeeded');
  });

  it('expires the session of a booking that was not stored', async () => {
    const t = await newTenant('Abandoned');
    await connectStripe(t, stripe);
    const prepared = await prepareCheckout(system(t), {
      bookingId: 'bkg_never_stored',
      amount: 1000,
      currency: 'EUR',
      holdEndsAt: new Date(Date.now() + 3_600_000),
      description: 'X',
    });
    await abandonCheckout(system(t), prepared);
    expect(stripe.session(prepared.session.id).status).toBe('expired');
  });
});
