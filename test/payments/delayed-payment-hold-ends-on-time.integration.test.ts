// A Checkout paid by a method that settles later (a bank debit: the session completes with
// payment_status unpaid, and Stripe's verdict comes days later) must not hold the slot without end.
// The hold ends on time like any other (booking.expired within 5 s of it, the slot free for others);
// the payment stays pending for Stripe's verdict, which takes the late-payment path: success confirms
// the booking while its slot is still free and refunds the payment in full when it was taken; failure
// fails the payment.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
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
import { eventsOf } from '../support/domain-fixtures';
import { apiSuite, fakeStripeSuite, type SuiteTenant } from '../support/harness';
import { connectStripe, deliverTo, read } from '../support/stripe-fixtures';

const stripe = fakeStripeSuite();
const suite = apiSuite({ tenant: false });

let worker: TimerWorker;
beforeAll(async () => {
  worker = await startTimerWorker();
  process.env.PAYMENT_HOLD = '2s';
  resetSettingsCache();
});
afterAll(async () => {
  await worker?.stop();
  delete process.env.PAYMENT_HOLD;
  resetSettingsCache();
});
afterEach(() => stripe.clearFaults());

const START = () => utc(dayFromNow(5), '10:00');

/** A tenant with Stripe and a paid service; a booking of it whose customer paid by bank debit. */
async function heldByDelayedPayment(name: string) {
  const t: SuiteTenant = await suite.newTenant(name);
  const account = await connectStripe(t, stripe);
  const r = await givenResource(t.admin, { weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]) });
  const s = await givenService(t.admin, [r.id], {
    price: { amount: 5000, currency: 'EUR' },
    payment: 'full',
  });
  const res = await t.admin('POST', '/bookings', {
    body: serviceBooking(s.id, START(), { customer: { name: 'Ada', email: 'ada@example.test' } }),
  });
  expect(res.status, res.text).toBe(201);
  const payment = await read(t.admin, res.body.payment.id);
  const sessionId = payment.provider_ref as string;
  const deliver = (event: Parameters<typeof deliverTo>[3], outcome?: string) =>
    deliverTo(stripe, suite.url, t, event, outcome);
  // The customer chose a bank debit: the session completes, unpaid, before the hold ends.
  await deliver(stripe.completeSessionAwaitingPayment(sessionId), 'no_change');
  return { t, account, serviceId: s.id, booking: res.body, payment, sessionId, deliver };
}

const statusOf = async (t: SuiteTenant, id: string) => (await t.admin('GET', `/bookings/${id}`)).body.status;

describe('security finding 2: a Checkout paid by a method that settles later holds the slot with no end', () => {
  it('the hold ends on time (booking.expired within 5 s), the slot is free, the payment waits for Stripe', async () => {
    const given = await heldByDelayedPayment('Delayed, hold ends');
    const hold = Date.parse(given.booking.hold_expires_at);
    const [expired] = await eventually(async () => {
      const events = await eventsOf(given.t.tenantId, {
        type: 'booking.expired',
        objectId: given.booking.id,
      });
      expect(events).toHaveLength(1);
      return events;
    });
    expect(Date.parse(expired.created_at) - hold).toBeLessThan(5_000);
    expect((await read(given.t.admin, given.payment.id)).status).toBe('pending');
    // Someone else can book the time now.
    const other = await given.t.admin('POST', '/bookings', {
      body: serviceBooking(given.serviceId, START(), { customer: { name: 'Grace' } }),
    });
    expect(other.status, other.text).toBe(201);
  });

  it('a delayed payment that succeeds after the hold confirms the booking while its slot is free', async () => {
    const given = await heldByDelayedPayment('Delayed, then paid');
    await eventually(async () => expect(await statusOf(given.t, given.booking.id)).toBe('expired'));
    await given.deliver(stripe.succeedDelayedPayment(given.sessionId), 'applied');
    expect(await statusOf(given.t, given.booking.id)).toBe('confirmed');
    expect((await read(given.t.admin, given.payment.id)).status).toBe('succeeded');
    expect((await eventsOf(given.t.tenantId, { objectId: given.booking.id })).map((e) => e.type)).toEqual([
      'booking.created',
      'booking.expired',
      'booking.confirmed',
    ]);
  });

  it('a delayed payment that succeeds after its slot was taken is refunded in full; the booking stays expired', async () => {
    const given = await heldByDelayedPayment('Delayed, slot taken');
    await eventually(async () => expect(await statusOf(given.t, given.booking.id)).toBe('expired'));
    process.env.PAYMENT_HOLD = '30m'; // the booking that takes the slot keeps it
    resetSettingsCache();
    try {
      const taker = await given.t.admin('POST', '/bookings', {
        body: serviceBooking(given.serviceId, START(), { customer: { name: 'Grace' } }),
      });
      expect(taker.status, taker.text).toBe(201);
      const paid = stripe.succeedDelayedPayment(given.sessionId);
      await given.deliver(paid, 'applied');
      await eventually(async () =>
        expect((await read(given.t.admin, given.payment.id)).status).toBe('refunded'),
      );
      expect(stripe.refundsOf(paid.data.object.payment_intent)).toMatchObject([{ amount: 5000 }]);
      expect(await statusOf(given.t, given.booking.id)).toBe('expired');
      expect(await statusOf(given.t, taker.body.id)).toBe('pending');
    } finally {
      process.env.PAYMENT_HOLD = '2s';
      resetSettingsCache();
    }
  });

  it('a delayed payment that fails after the hold fails the payment and changes the booking no more', async () => {
    const given = await heldByDelayedPayment('Delayed, then failed');
    await eventually(async () => expect(await statusOf(given.t, given.booking.id)).toBe('expired'));
    await given.deliver(stripe.failDelayedPayment(given.sessionId), 'applied');
    expect((await read(given.t.admin, given.payment.id)).status).toBe('failed');
    expect(await statusOf(given.t, given.booking.id)).toBe('expired');
    expect(
      await eventsOf(given.t.tenantId, { type: 'booking.expired', objectId: given.booking.id }),
    ).toHaveLength(1);
  });
});
