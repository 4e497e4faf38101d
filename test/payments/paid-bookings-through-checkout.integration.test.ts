// Paid bookings through Stripe Checkout, end to end against the stand-in Stripe (test/support/fake-stripe.ts):
// POST /bookings of a service with payment deposit or full opens a Checkout Session with exactly the
// parameters the API describes, stores nothing when Stripe is missing or away, and withdraws the
// session of a booking that was not stored. Stripe's webhooks (signed as Stripe signs them) confirm or
// expire the booking, once, in any order; the hold's timer (the worker engine) withdraws the session,
// or confirms a booking paid first; a payment that lands after the hold expired confirms the booking
// while the slot is free and is refunded through Stripe, exactly once, when it is not.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import { lateRefundIdempotencyKey } from '@/server/domain/payments/checkout/timers';
import { startTimerWorker, type TimerWorker } from '@/server/runtime/timers/worker';
import {
  dayFromNow,
  eventually,
  everyDay,
  givenResource,
  givenService,
  serviceBooking,
  utc,
} from '../support/booking-fixtures';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import type { FakeAccount } from '../support/fake-stripe';
import { apiSuite, fakeStripeSuite, type SuiteTenant } from '../support/harness';
import { connectStripe, deliverTo, read } from '../support/stripe-fixtures';

const stripe = fakeStripeSuite();
const suite = apiSuite({ tenant: false });

let worker: TimerWorker;
beforeAll(async () => {
  worker = await startTimerWorker();
});
afterAll(() => worker?.stop());
afterEach(() => {
  stripe.clearFaults();
  delete process.env.PAYMENT_HOLD;
  resetSettingsCache();
});

const sessionsCreated = () => stripe.requestsTo('POST', /^\/v1\/checkout\/sessions$/);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ON_TIME_MS = 5_000;

function paymentHold(value: string) {
  process.env.PAYMENT_HOLD = value;
  resetSettingsCache();
}

interface Paid {
  t: SuiteTenant;
  account: FakeAccount;
  serviceId: string;
  resourceId: string;
}

/** A tenant with Stripe connected and a service on an all-day resource: 50 EUR, 15 EUR deposit. */
async function paidService(
  name: string,
  overrides: Record<string, unknown> = { payment: 'deposit', deposit_amount: 1500 },
  connect = true,
): Promise<Paid> {
  const t = await suite.newTenant(name);
  const account = connect ? await connectStripe(t, stripe) : (undefined as unknown as FakeAccount);
  const r = await givenResource(t.admin, { weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]) });
  const s = await givenService(t.admin, [r.id], { price: { amount: 5000, currency: 'EUR' }, ...overrides });
  return { t, account, serviceId: s.id, resourceId: r.id };
}

const START = () => utc(dayFromNow(5), '10:00');

async function book(p: Paid, start = START(), extra: Record<string, unknown> = {}) {
  return p.t.admin('POST', '/bookings', {
    body: serviceBooking(p.serviceId, start, {
      customer: { name: 'Ada', email: 'ada@example.test' },
      ...extra,
    }),
  });
}

/** A paid service's booking, created: the booking, its payment and its session id. */
async function booked(p: Paid, start = START(), extra: Record<string, unknown> = {}) {
  const res = await book(p, start, extra);
  expect(res.status, res.text).toBe(201);
  const payment = await read(p.t.admin, res.body.payment.id);
  return { booking: res.body, payment, sessionId: payment.provider_ref as string };
}

const deliver = (p: Paid, event: Parameters<typeof deliverTo>[3], outcome?: string) =>
  deliverTo(stripe, suite.url, p.t, event, outcome);

const bookingOf = async (p: Paid, id: string) => (await p.t.admin('GET', `/bookings/${id}`)).body;
const typesOf = async (p: Paid, objectId: string) =>
  (await eventsOf(p.t.tenantId, { objectId })).map((e) => e.type);

/** What a refused booking could have stored: bookings, payments and events of the tenant. */
async function storedFor(tenantId: string) {
  const { rows } = await pgPool().query(
    `select (select count(*) from bookings where tenant_id = $1)::int as bookings,
            (select count(*) from payments where tenant_id = $1)::int as payments,
            (select count(*) from events where tenant_id = $1)::int as events`,
    [tenantId],
  );
  return rows[0];
}

describe('booking a paid service opens a Stripe Checkout Session', () => {
  it('a deposit: pending with a PAYMENT_HOLD hold, a pending Stripe payment, and the session’s exact parameters', async () => {
    const p = await paidService('Deposit');
    const before = Date.now();
    const { booking, payment, sessionId } = await booked(p);
    const hold = Date.parse(booking.hold_expires_at);
    expect(booking.status).toBe('pending');
    expect(hold - before).toBeGreaterThan(29.9 * 60_000);
    expect(hold - Date.now()).toBeLessThan(30.1 * 60_000);
    expect(payment).toMatchObject({
      booking_id: booking.id,
      status: 'pending',
      provider: 'stripe',
      amount: 1500,
      currency: 'EUR',
      provider_ref: expect.stringMatching(/^cs_test_/),
      checkout_url: stripe.session(sessionId).url,
      refunded_amount: 0,
    });
    expect(booking.payment).toEqual({ id: payment.id, checkout_url: payment.checkout_url });
    expect((await bookingOf(p, booking.id)).payment).toEqual(booking.payment);
    const listed = await p.t.admin('GET', '/bookings');
    expect(listed.body.data[0].payment).toEqual(booking.payment);

    const request = sessionsCreated().at(-1);
    const metadata = { tenant_id: p.t.tenantId, booking_id: booking.id, payment_id: payment.id };
    // The hold (30 min) ends sooner than Stripe allows a session to: Stripe's minimum plus the margin.
    const expiresAt = Math.ceil((Date.parse(payment.created_at) + 32 * 60_000) / 1000);
    expect(request).toMatchObject({
      apiKey: p.account.secretKey,
      idempotencyKey: `switchboard-checkout-${payment.id}`,
      params: {
        mode: 'payment',
        line_items: [
          {
            quantity: '1',
            price_data: { currency: 'eur', unit_amount: '1500', product_data: { name: 'Deposit: Check-up' } },
          },
        ],
        client_reference_id: booking.id,
        metadata,
        payment_intent_data: { metadata },
        expires_at: String(expiresAt),
        customer_email: 'ada@example.test',
      },
    });
    // booking.created names the payment; payment.created follows in the same transaction.
    const [created] = await eventsOf(p.t.tenantId, { type: 'booking.created', objectId: booking.id });
    expect(created.data.object).toEqual(booking);
    const [paymentCreated] = await eventsOf(p.t.tenantId, { type: 'payment.created', objectId: payment.id });
    expect(paymentCreated.data.object).toEqual(payment);
  });

  it('the full price, with the session expiring at the hold’s end when it is long enough; an earlier hold_expires_at wins', async () => {
    paymentHold('2h');
    const p = await paidService('Full', { payment: 'full' });
    const { booking, payment } = await booked(p);
    expect(payment.amount).toBe(5000);
    const hold = Date.parse(booking.hold_expires_at);
    expect(hold - Date.parse(booking.created_at)).toBeGreaterThan(119.9 * 60_000);
    expect(sessionsCreated().at(-1)?.params).toMatchObject({
      expires_at: String(Math.ceil(hold / 1000)),
      line_items: [{ price_data: { unit_amount: '5000', product_data: { name: 'Check-up' } } }],
    });
    const asked = new Date(Date.now() + 45 * 60_000).toISOString();
    const earlier = await booked(p, utc(dayFromNow(6), '10:00'), { hold_expires_at: asked });
    expect(earlier.booking.hold_expires_at).toBe(asked);
    const later = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const capped = await booked(p, utc(dayFromNow(7), '10:00'), { hold_expires_at: later });
    expect(Date.parse(capped.booking.hold_expires_at)).toBeLessThan(Date.parse(later));
  });

  it('a free service has no payment (payment: null) and asks nothing of Stripe', async () => {
    const p = await paidService('Free', { payment: 'none' });
    const before = stripe.requests.length;
    const res = await book(p);
    expect(res.status).toBe(201);
    expect(res.body.payment).toBeNull();
    expect(stripe.requests.length).toBe(before);
  });

  it('without Stripe connected: 409 payment_provider_missing, nothing stored, nothing asked', async () => {
    const p = await paidService('No Stripe', undefined, false);
    const before = await storedFor(p.t.tenantId);
    const asked = stripe.requests.length;
    expectProblemCode(await book(p), 409, 'payment_provider_missing');
    expect(await storedFor(p.t.tenantId)).toEqual(before);
    expect(stripe.requests.length).toBe(asked);
  });

  it('with Stripe out of reach: 502 payment_provider_unavailable, nothing stored', async () => {
    const p = await paidService('Stripe away');
    const before = await storedFor(p.t.tenantId);
    stripe.failNext(/^\/v1\/checkout\/sessions$/, { kind: 'status', status: 503 }, 3, 'POST');
    const res = await book(p);
    expectProblemCode(res, 502, 'payment_provider_unavailable');
    expect(await storedFor(p.t.tenantId)).toEqual(before);
  });

  it('a taken slot is refused before Stripe is asked: no session for it', async () => {
    const p = await paidService('Taken');
    await booked(p);
    const asked = sessionsCreated().length;
    expectProblemCode(await book(p), 409, 'slot_unavailable');
    expect(sessionsCreated().length).toBe(asked);
  });

  it('racing requests for one slot: one booking, and every other session created is expired at Stripe', async () => {
    const p = await paidService('Race');
    const asked = sessionsCreated().length;
    const results = await Promise.all(Array.from({ length: 4 }, () => book(p)));
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    for (const lost of results.filter((r) => r.status !== 201))
      expectProblemCode(lost, 409, 'slot_unavailable');
    const winner = await read(p.t.admin, won[0].body.payment.id);
    const sessions = stripe.sessionsOf(p.account).map((session) => session.id as string);
    expect(sessions.length).toBe(sessionsCreated().length - asked);
    expect(sessions).toContain(winner.provider_ref);
    for (const id of sessions) {
      expect(stripe.session(id).status).toBe(id === winner.provider_ref ? 'open' : 'expired');
    }
    expect((await p.t.admin('GET', '/payments')).body.data).toHaveLength(1);
  });
});

describe('Stripe’s webhooks confirm or expire the booking', () => {
  it('checkout.session.completed (paid): payment succeeded and booking confirmed, both events, once under duplicates', async () => {
    const p = await paidService('Completed');
    const { booking, payment, sessionId } = await booked(p);
    const completed = stripe.completeSession(sessionId);
    const answers = await Promise.all([0, 1, 2].map(() => deliver(p, completed)));
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate']);
    expect((await read(p.t.admin, payment.id)).status).toBe('succeeded');
    expect((await bookingOf(p, booking.id)).status).toBe('confirmed');
    expect(await typesOf(p, booking.id)).toEqual(['booking.created', 'booking.confirmed']);
    expect(await typesOf(p, payment.id)).toEqual(['payment.created', 'payment.succeeded']);
    // Both changes in one transaction: the two events were recorded together.
    const { rows } = await pgPool().query(
      `select count(distinct xmin::text)::int as transactions from events
       where tenant_id = $1 and type in ('booking.confirmed', 'payment.succeeded')`,
      [p.t.tenantId],
    );
    expect(rows[0].transactions).toBe(1);
    // Later and out-of-order facts change nothing: a repeat, and an expiry made up after the fact.
    await deliver(p, completed, 'duplicate');
    await deliver(
      p,
      stripe.makeEvent(p.account, 'checkout.session.expired', {
        ...completed.data.object,
        status: 'expired',
      }),
      'no_change',
    );
    expect((await bookingOf(p, booking.id)).status).toBe('confirmed');
  });

  it('async_payment_succeeded after a completion awaiting payment confirms it', async () => {
    const p = await paidService('Delayed');
    const { booking, sessionId } = await booked(p);
    await deliver(p, stripe.completeSessionAwaitingPayment(sessionId), 'no_change');
    expect((await bookingOf(p, booking.id)).status).toBe('pending');
    await deliver(p, stripe.succeedDelayedPayment(sessionId), 'applied');
    expect((await bookingOf(p, booking.id)).status).toBe('confirmed');
  });

  it('checkout.session.expired: payment failed, booking expired (booking.expired), slot free', async () => {
    const p = await paidService('Expired');
    const { booking, payment, sessionId } = await booked(p);
    const expired = stripe.expireSession(sessionId);
    await deliver(p, expired, 'applied');
    await deliver(p, expired, 'duplicate');
    expect((await read(p.t.admin, payment.id)).status).toBe('failed');
    expect((await bookingOf(p, booking.id)).status).toBe('expired');
    expect(await typesOf(p, booking.id)).toEqual(['booking.created', 'booking.expired']);
    expect((await book(p)).status).toBe(201);
  });

  it('async_payment_failed: payment failed, booking expired', async () => {
    const p = await paidService('Async failed');
    const { booking, payment, sessionId } = await booked(p);
    await deliver(p, stripe.completeSessionAwaitingPayment(sessionId), 'no_change');
    await deliver(p, stripe.failDelayedPayment(sessionId), 'applied');
    expect((await read(p.t.admin, payment.id)).status).toBe('failed');
    expect((await bookingOf(p, booking.id)).status).toBe('expired');
  });

  it('out of order: an expiry delivered after the completion it follows changes nothing', async () => {
    const p = await paidService('Order');
    const { booking, sessionId } = await booked(p);
    const completed = stripe.completeSession(sessionId);
    const staleExpiry = stripe.makeEvent(
      p.account,
      'checkout.session.async_payment_failed',
      completed.data.object,
    );
    await deliver(p, completed, 'applied');
    await deliver(p, staleExpiry, 'no_change');
    expect((await bookingOf(p, booking.id)).status).toBe('confirmed');
  });
});

describe('the hold runs out first', () => {
  it('the timer expires the session at Stripe, the booking (booking.expired) and the payment, within 5 s', async () => {
    const p = await paidService('Hold timer');
    paymentHold('2s');
    const { booking, payment, sessionId } = await booked(p);
    const hold = Date.parse(booking.hold_expires_at);
    const [event] = await eventually(async () => {
      const events = await eventsOf(p.t.tenantId, { type: 'booking.expired', objectId: booking.id });
      expect(events).toHaveLength(1);
      return events;
    });
    expect(Date.parse(event.created_at) - hold).toBeLessThan(ON_TIME_MS);
    expect(stripe.session(sessionId).status).toBe('expired');
    expect((await read(p.t.admin, payment.id)).status).toBe('failed');
    // Stripe's own checkout.session.expired for it then changes nothing.
    const [stripeExpired] = stripe
      .eventsOf(p.account, 'checkout.session.expired')
      .filter((e) => e.data.object.id === sessionId);
    await deliver(p, stripeExpired, 'no_change');
    expect(await typesOf(p, payment.id)).toEqual(['payment.created', 'payment.failed']);
  });

  it('paid first (its webhook not here yet): the timer confirms the booking instead, never expires it', async () => {
    const p = await paidService('Paid first');
    paymentHold('2s');
    const { booking, payment, sessionId } = await booked(p);
    const completed = stripe.completeSession(sessionId); // not delivered yet
    await eventually(async () => expect((await bookingOf(p, booking.id)).status).toBe('confirmed'));
    expect((await read(p.t.admin, payment.id)).status).toBe('succeeded');
    await deliver(p, completed, 'no_change');
    await sleep(1_000);
    expect(await typesOf(p, booking.id)).toEqual(['booking.created', 'booking.confirmed']);
    expect(stripe.refundsOf(completed.data.object.payment_intent)).toEqual([]);
  });

  it('Stripe out of reach when the hold ends: the booking expires on time, the session is expired once Stripe answers', async () => {
    const p = await paidService('Away at expiry');
    paymentHold('2s');
    const { booking, payment, sessionId } = await booked(p);
    const expirePath = new RegExp(`^/v1/checkout/sessions/${sessionId}/expire$`);
    stripe.failNext(expirePath, { kind: 'status', status: 503 }, 5);
    await eventually(async () => expect((await bookingOf(p, booking.id)).status).toBe('expired'));
    await eventually(async () => expect(stripe.session(sessionId).status).toBe('expired'), 15_000);
    await eventually(async () => expect((await read(p.t.admin, payment.id)).status).toBe('failed'));
  });
});

describe('a payment that lands after its hold expired', () => {
  /** A booking whose hold expired while Stripe could not withdraw its session (which stays open). */
  async function expiredWithOpenSession(p: Paid, start = START()) {
    paymentHold('2s');
    const given = await booked(p, start);
    stripe.failNext(
      new RegExp(`^/v1/checkout/sessions/${given.sessionId}/expire$`),
      { kind: 'status', status: 503 },
      100_000,
    );
    await eventually(async () => expect((await bookingOf(p, given.booking.id)).status).toBe('expired'));
    expect(stripe.session(given.sessionId).status).toBe('open');
    return given;
  }

  it('confirms the booking after all while its slot is still free', async () => {
    const p = await paidService('Late, free');
    const { booking, payment, sessionId } = await expiredWithOpenSession(p);
    await deliver(p, stripe.completeSession(sessionId), 'applied');
    expect((await bookingOf(p, booking.id)).status).toBe('confirmed');
    expect((await read(p.t.admin, payment.id)).status).toBe('succeeded');
    expect(await typesOf(p, booking.id)).toEqual(['booking.created', 'booking.expired', 'booking.confirmed']);
    // It holds its slot again.
    expectProblemCode(await book(p), 409, 'slot_unavailable');
  });

  it('slot taken since: refunded in full through Stripe exactly once (even when its first answers are lost), booking stays expired', async () => {
    const p = await paidService('Late, taken');
    const { booking, payment, sessionId } = await expiredWithOpenSession(p);
    paymentHold('30m'); // the booking that takes the slot keeps it
    const taker = await p.t.admin('POST', '/bookings', {
      body: serviceBooking(p.serviceId, booking.start_at),
    });
    expect(taker.status, taker.text).toBe(201);
    // Stripe makes the refund but every answer to the first attempt is lost (as when the process dies
    // between Stripe's answer and its commit): the timer tries again, and Stripe replays that refund.
    stripe.failNext(/^\/v1\/refunds$/, { kind: 'drop' }, 3, 'POST');
    const completed = stripe.completeSession(sessionId);
    const intent = completed.data.object.payment_intent as string;
    await Promise.all([deliver(p, completed, undefined), deliver(p, completed, undefined)]);
    await eventually(async () => expect((await read(p.t.admin, payment.id)).status).toBe('refunded'), 15_000);
    const refunded = await read(p.t.admin, payment.id);
    expect(refunded.refunded_amount).toBe(1500);
    expect((await bookingOf(p, booking.id)).status).toBe('expired');
    const refunds = stripe.refundsOf(intent);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 1500, status: 'succeeded' });
    const attempts = stripe
      .requestsTo('POST', /^\/v1\/refunds$/)
      .filter((r) => r.params.payment_intent === intent);
    expect(attempts.length).toBeGreaterThan(1);
    expect(new Set(attempts.map((r) => r.idempotencyKey))).toEqual(
      new Set([lateRefundIdempotencyKey(payment.id)]),
    );
    // Stripe's charge.refunded for it, and any later repeat, change nothing; no second refund ever.
    const [chargeRefunded] = stripe
      .eventsOf(p.account, 'charge.refunded')
      .filter((e) => e.data.object.payment_intent === intent);
    await deliver(p, chargeRefunded, 'no_change');
    await deliver(p, completed, 'duplicate');
    await sleep(2_500);
    expect(stripe.refundsOf(intent)).toHaveLength(1);
    expect(await typesOf(p, booking.id)).toEqual(['booking.created', 'booking.expired']);
    expect(await typesOf(p, payment.id)).toEqual([
      'payment.created',
      'payment.succeeded',
      'payment.refunded',
    ]);
    expect((await bookingOf(p, taker.body.id)).status).toBe('pending');
  });
});

describe('cancel, reschedule and refunds of a paid booking', () => {
  it('cancelling a pending paid booking withdraws its session (payment failed); nothing is refunded', async () => {
    const p = await paidService('Cancel pending');
    const { booking, payment, sessionId } = await booked(p);
    const res = await p.t.admin('POST', `/bookings/${booking.id}/cancel`, {
      body: { reason: 'Changed plans' },
    });
    expect(res.body.status).toBe('cancelled');
    await eventually(async () => expect(stripe.session(sessionId).status).toBe('expired'));
    await eventually(async () => expect((await read(p.t.admin, payment.id)).status).toBe('failed'));
    expect((await bookingOf(p, booking.id)).status).toBe('cancelled');
  });

  it('cancelling a paid, confirmed booking does not refund by itself; a partial then a full refund go through Stripe', async () => {
    const p = await paidService('Cancel paid', { payment: 'full' });
    const { booking, payment, sessionId } = await booked(p);
    const completed = stripe.completeSession(sessionId);
    await deliver(p, completed, 'applied');
    const intent = completed.data.object.payment_intent as string;
    expect((await p.t.admin('POST', `/bookings/${booking.id}/cancel`, { body: {} })).body.status).toBe(
      'cancelled',
    );
    await sleep(500);
    expect(stripe.refundsOf(intent)).toEqual([]);
    expect((await read(p.t.admin, payment.id)).status).toBe('succeeded');

    const part = await p.t.admin('POST', `/payments/${payment.id}/refund`, {
      body: { amount: 2000 },
      headers: { 'Idempotency-Key': 'refund-part-1' },
    });
    expect(part.body).toMatchObject({ status: 'succeeded', refunded_amount: 2000 });
    // The same request retried (its answer lost): replayed, not refunded twice.
    const again = await p.t.admin('POST', `/payments/${payment.id}/refund`, {
      body: { amount: 2000 },
      headers: { 'Idempotency-Key': 'refund-part-1' },
    });
    expect(again.body.refunded_amount).toBe(2000);
    expect(stripe.refundsOf(intent)).toHaveLength(1);
    const rest = await p.t.admin('POST', `/payments/${payment.id}/refund`, { body: {} });
    expect(rest.body).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
    expect(stripe.refundsOf(intent).map((r) => r.amount)).toEqual([2000, 3000]);
  });

  it('rescheduling a pending paid booking keeps its hold and its session; the payment then confirms it', async () => {
    const p = await paidService('Reschedule');
    const { booking, payment, sessionId } = await booked(p);
    const moved = await p.t.admin('POST', `/bookings/${booking.id}/reschedule`, {
      body: { start_at: utc(dayFromNow(9), '10:00') },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      status: 'pending',
      hold_expires_at: booking.hold_expires_at,
      payment: booking.payment,
    });
    expect(stripe.session(sessionId).status).toBe('open');
    await deliver(p, stripe.completeSession(sessionId), 'applied');
    expect((await bookingOf(p, booking.id)).status).toBe('confirmed');
    expect((await read(p.t.admin, payment.id)).status).toBe('succeeded');
  });
});
