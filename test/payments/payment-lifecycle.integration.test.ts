import { describe, expect, it } from 'vitest';
import { givenBooking, givenPayment, type PaymentState, paymentBody } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';

const { tenant: a, other: b, newTenant } = apiSuite({ other: true, agent: true });

describe('create', () => {
  it('creates a pending payment for a booking and records payment.created', async () => {
    const booking = await givenBooking(a.admin, 'pending', { customer: { name: 'Bo' } });
    const res = await a.admin('POST', '/payments', {
      body: {
        amount: 12_050,
        currency: 'EUR',
        booking_id: booking.id,
        provider: 'manual',
        provider_ref: 'bank-transfer-123',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      amount: 12_050,
      currency: 'EUR',
      booking_id: booking.id,
      status: 'pending',
      provider: 'manual',
      provider_ref: 'bank-transfer-123',
      checkout_url: null,
      refunded_amount: 0,
    });
    expect(res.body.id).toMatch(/^pay_/);
    const [event] = await eventsOf(a.tenantId, { type: 'payment.created', objectId: res.body.id });
    expect(event.data).toEqual({ object: res.body });
    expect((await a.agent('GET', `/payments/${res.body.id}`)).body).toEqual(res.body);
  });

  it('defaults the provider to manual', async () => {
    const res = await a.admin('POST', '/payments', { body: { amount: 1, currency: 'JPY' } });
    expect(res.body).toMatchObject({ provider: 'manual', provider_ref: null, booking_id: null });
  });

  it.each([
    ['a zero amount', { amount: 0, currency: 'EUR' }, 'amount'],
    ['a negative amount', { amount: -5, currency: 'EUR' }, 'amount'],
    ['a fractional amount', { amount: 10.5, currency: 'EUR' }, 'amount'],
    ['an amount as a string', { amount: '100', currency: 'EUR' }, 'amount'],
    ['a lower-case currency', { amount: 100, currency: 'eur' }, 'currency'],
    ['an unknown currency', { amount: 100, currency: 'EUD' }, 'currency'],
    [
      'an unknown booking',
      { amount: 100, currency: 'EUR', booking_id: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' },
      'booking_id',
    ],
  ])('refuses %s with 422', async (_, body, path) => {
    const res = await a.admin('POST', '/payments', { body });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it.each([
    ['stripe', 'Only manual payments are recorded by hand'],
    ['paypal', 'Only manual payments are recorded by hand'],
  ])(
    'refuses provider %s with 422: Stripe payments come with their Checkout Session',
    async (provider, message) => {
      const res = await a.admin('POST', '/payments', {
        body: paymentBody({ provider, provider_ref: 'cs_made_up' }),
      });
      expectProblemCode(res, 422, 'validation_failed');
      expect(res.body.errors).toEqual([{ path: 'provider', message: expect.stringContaining(message) }]);
    },
  );

  it("refuses another tenant's booking as booking_id", async () => {
    const foreign = await givenBooking(b.admin, 'pending', { customer: { name: 'Bo' } });
    const res = await a.admin('POST', '/payments', {
      body: { amount: 100, currency: 'EUR', booking_id: foreign.id },
    });
    expectProblemCode(res, 422, 'validation_failed');
  });
});

describe('state machine', () => {
  const legal: Record<string, Record<string, string | null>> = {
    pending: { succeed: 'succeeded', fail: 'failed', refund: null },
    succeeded: { succeed: null, fail: null, refund: 'refunded' },
    failed: { succeed: null, fail: null, refund: null },
    refunded: { succeed: null, fail: null, refund: null },
  };
  const cases = Object.entries(legal).flatMap(([from, byAction]) =>
    Object.entries(byAction).map(([action, to]) => [from, action, to] as const),
  );

  it.each(cases)('%s + %s → %s', async (from, action, to) => {
    const { id } = await givenPayment(a.admin, from as PaymentState);
    const before = (await a.admin('GET', `/payments/${id}`)).body;
    const count = (await eventsOf(a.tenantId, { objectId: id })).length;
    const res = await a.admin('POST', `/payments/${id}/${action}`);
    const events = await eventsOf(a.tenantId, { objectId: id });
    if (to === null) {
      expectProblemCode(res, 409, 'invalid_transition');
      expect((await a.admin('GET', `/payments/${id}`)).body).toEqual(before);
      expect(events).toHaveLength(count);
    } else {
      expect(res.body.status).toBe(to);
      expect(events).toHaveLength(count + 1);
      expect(events[events.length - 1]).toMatchObject({ type: `payment.${to}`, data: { object: res.body } });
    }
  });

  it('refunds a manual payment in full only, recording the whole amount as refunded_amount', async () => {
    const { id } = await givenPayment(a.admin, 'succeeded', { amount: 4500 });
    const part = await a.admin('POST', `/payments/${id}/refund`, { body: { amount: 1000 } });
    expectProblemCode(part, 422, 'validation_failed');
    expect(part.body.errors.map((e: { path: string }) => e.path)).toEqual(['amount']);
    expect((await a.admin('GET', `/payments/${id}`)).body).toMatchObject({
      status: 'succeeded',
      refunded_amount: 0,
    });
    const whole = await a.admin('POST', `/payments/${id}/refund`, { body: { amount: 4500 } });
    expect(whole.body).toMatchObject({ status: 'refunded', refunded_amount: 4500 });
  });

  it('records the provider reference on success', async () => {
    const { id } = await givenPayment(a.admin, 'pending');
    const res = await a.admin('POST', `/payments/${id}/succeed`, { body: { provider_ref: 'ch_42' } });
    expect(res.body).toMatchObject({ status: 'succeeded', provider_ref: 'ch_42' });
  });

  it('lets one of a concurrent succeed and fail win', async () => {
    const { id } = await givenPayment(a.admin, 'pending');
    const [x, y] = await Promise.all([
      a.admin('POST', `/payments/${id}/succeed`),
      a.admin('POST', `/payments/${id}/fail`),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const changes = (await eventsOf(a.tenantId, { objectId: id })).filter(
      (e) => e.type !== 'payment.created',
    );
    expect(changes).toHaveLength(1);
  });
});

describe('roles', () => {
  it('lets agents read payments but not change them', async () => {
    const { id } = await givenPayment(a.admin, 'pending');
    expect((await a.agent('GET', '/payments')).status).toBe(200);
    expect((await a.agent('GET', `/payments/${id}`)).status).toBe(200);
    expectProblemCode(
      await a.agent('POST', '/payments', { body: paymentBody({ amount: 100 }) }),
      403,
      'forbidden',
    );
    for (const action of ['succeed', 'fail', 'refund']) {
      expectProblemCode(await a.agent('POST', `/payments/${id}/${action}`), 403, 'forbidden');
    }
    expect((await a.admin('GET', `/payments/${id}`)).body.status).toBe('pending');
  });
});

describe('list and isolation', () => {
  it('pages newest first with status and booking filters', async () => {
    const t = await newTenant('List');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await givenPayment(t.admin, 'pending', { amount: 100 + i, currency: 'USD' })).id);
    }
    await t.admin('POST', `/payments/${ids[0]}/succeed`);
    const p1 = await t.agent('GET', '/payments?limit=2');
    expect(p1.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const p2 = await t.agent('GET', `/payments?limit=2&cursor=${p1.body.next_cursor}`);
    expect(p2.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    const ok = await t.agent('GET', '/payments?status=succeeded');
    expect(ok.body.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
  });

  it("answers 404 for another tenant's payment on every route", async () => {
    const { id } = await givenPayment(b.admin, 'succeeded');
    expectProblemCode(await a.admin('GET', `/payments/${id}`), 404, 'not_found');
    for (const action of ['succeed', 'fail', 'refund']) {
      expectProblemCode(await a.admin('POST', `/payments/${id}/${action}`), 404, 'not_found');
    }
    expect(
      (await a.admin('GET', '/payments?limit=100')).body.data.map((p: { id: string }) => p.id),
    ).not.toContain(id);
    expect((await b.admin('GET', `/payments/${id}`)).body.status).toBe('succeeded');
  });
});
