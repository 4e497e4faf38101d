import { describe, expect, it } from 'vitest';
import { asEventObject } from '../support/booking-fixtures';
import { type BookingState, bookingBody, givenBooking } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';

const { tenant: a, other: b, newTenant } = apiSuite({ other: true, agent: true });

const { start_at: start, end_at: end } = bookingBody();

describe('create and read', () => {
  it('creates a pending booking and records booking.created with the REST representation', async () => {
    const res = await a.agent('POST', '/bookings', {
      body: bookingBody({ notes: 'first visit', metadata: { source: 'web' } }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'pending',
      customer: { name: 'Ada Lovelace', email: 'ada@example.test', phone: '+441234567' },
      service: 'Check-up',
      start_at: start,
      end_at: end,
      notes: 'first visit',
      metadata: { source: 'web' },
      cancellation_reason: null,
    });
    expect(res.body.id).toMatch(/^bkg_[0-9A-Z]{26}$/);
    const [event] = await eventsOf(a.tenantId, { type: 'booking.created', objectId: res.body.id });
    expect(event).toMatchObject({ type: 'booking.created', tenant_id: a.tenantId, api_version: 'v1' });
    expect(event.data).toEqual({ object: asEventObject(res.body) });
    expect((await a.agent('GET', `/bookings/${res.body.id}`)).body).toEqual(res.body);
  });

  it('normalises offsets to UTC', async () => {
    const res = await a.admin('POST', '/bookings', {
      body: bookingBody({ start_at: '2026-12-01T10:00:00+01:00', end_at: '2026-12-01T11:00:00+01:00' }),
    });
    expect(res.body).toMatchObject({
      start_at: '2026-12-01T09:00:00.000Z',
      end_at: '2026-12-01T10:00:00.000Z',
    });
  });

  it.each([
    ['end before start', { end_at: '2026-12-01T08:00:00Z' }, 'end_at'],
    ['end equal to start', { end_at: start }, 'end_at'],
    ['a bad timestamp', { start_at: 'tomorrow' }, 'start_at'],
    ['a bad email', { customer: { name: 'X', email: 'not-an-email' } }, 'customer.email'],
    ['no customer name', { customer: { email: 'x@example.test' } }, 'customer.name'],
  ])('refuses %s with 422', async (_, extra, path) => {
    const before = await eventsOf(a.tenantId, { type: 'booking.created' });
    const res = await a.admin('POST', '/bookings', { body: bookingBody(extra) });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await eventsOf(a.tenantId, { type: 'booking.created' })).toHaveLength(before.length);
  });

  it('answers 404 for an unknown id', async () => {
    expectProblemCode(await a.admin('GET', '/bookings/bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q'), 404, 'not_found');
  });
});

describe('state machine', () => {
  const actions = ['confirm', 'cancel', 'complete'] as const;
  const legal: Record<string, Record<string, string | null>> = {
    pending: { confirm: 'confirmed', cancel: 'cancelled', complete: null },
    confirmed: { confirm: null, cancel: 'cancelled', complete: 'completed' },
    cancelled: { confirm: null, cancel: null, complete: null },
    completed: { confirm: null, cancel: null, complete: null },
  };
  const cases = Object.entries(legal).flatMap(([from, byAction]) =>
    actions.map((action) => [from, action, byAction[action]] as const),
  );

  it.each(cases)('%s + %s → %s', async (from, action, to) => {
    const { id } = await givenBooking(a.admin, from as BookingState);
    const before = await a.admin('GET', `/bookings/${id}`);
    const eventsBefore = await eventsOf(a.tenantId, { objectId: id });
    const res = await a.agent('POST', `/bookings/${id}/${action}`);
    const events = await eventsOf(a.tenantId, { objectId: id });
    if (to === null) {
      expectProblemCode(res, 409, 'invalid_transition');
      expect((await a.admin('GET', `/bookings/${id}`)).body).toEqual(before.body);
      expect(events).toHaveLength(eventsBefore.length);
    } else {
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(to);
      expect(events).toHaveLength(eventsBefore.length + 1);
      const last = events[events.length - 1];
      expect(last.type).toBe(`booking.${to}`);
      expect(last.data.object).toEqual(asEventObject(res.body));
    }
  });

  it('keeps the cancellation reason', async () => {
    const { id } = await givenBooking(a.admin, 'confirmed');
    const res = await a.agent('POST', `/bookings/${id}/cancel`, { body: { reason: 'Customer is ill' } });
    expect(res.body).toMatchObject({ status: 'cancelled', cancellation_reason: 'Customer is ill' });
    const [event] = await eventsOf(a.tenantId, { type: 'booking.cancelled', objectId: id });
    expect(event.data.object.cancellation_reason).toBe('Customer is ill');
  });

  it('lets only one of two concurrent transitions win', async () => {
    for (let round = 0; round < 5; round++) {
      const { id } = await givenBooking(a.admin, 'confirmed');
      const [x, y] = await Promise.all([
        a.admin('POST', `/bookings/${id}/cancel`, { body: { reason: 'race' } }),
        a.admin('POST', `/bookings/${id}/complete`),
      ]);
      const statuses = [x.status, y.status].sort();
      expect(statuses).toEqual([200, 409]);
      const winner = x.status === 200 ? x.body : y.body;
      expect((await a.admin('GET', `/bookings/${id}`)).body.status).toBe(winner.status);
      const finals = (await eventsOf(a.tenantId, { objectId: id })).filter((e) =>
        /cancelled|completed/.test(e.type),
      );
      expect(finals.map((e) => e.type)).toEqual([`booking.${winner.status}`]);
    }
  });

  it('lets two concurrent identical confirms produce one event', async () => {
    const { id } = await givenBooking(a.admin, 'pending');
    const results = await Promise.all([1, 2, 3].map(() => a.admin('POST', `/bookings/${id}/confirm`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await eventsOf(a.tenantId, { type: 'booking.confirmed', objectId: id })).toHaveLength(1);
  });
});

describe('update and reschedule', () => {
  it('reschedules with booking.rescheduled and the previous times', async () => {
    const { id } = await givenBooking(a.admin, 'confirmed');
    const res = await a.agent('PATCH', `/bookings/${id}`, {
      body: { start_at: '2026-12-02T09:00:00Z', end_at: '2026-12-02T10:00:00Z' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'confirmed',
      start_at: '2026-12-02T09:00:00.000Z',
      end_at: '2026-12-02T10:00:00.000Z',
    });
    const [event] = await eventsOf(a.tenantId, { type: 'booking.rescheduled', objectId: id });
    expect(event.data).toEqual({
      object: asEventObject(res.body),
      previous: { start_at: start, end_at: end, resource_id: null },
    });
  });

  it('moving only the end time is a reschedule too; other fields change without an event', async () => {
    const { id } = await givenBooking(a.admin, 'pending');
    const notes = await a.agent('PATCH', `/bookings/${id}`, {
      body: { notes: 'bring x-rays', customer: { phone: null }, metadata: { room: 4 } },
    });
    expect(notes.body).toMatchObject({
      notes: 'bring x-rays',
      customer: { name: 'Ada Lovelace', phone: null },
      metadata: { room: 4 },
    });
    expect(await eventsOf(a.tenantId, { type: 'booking.rescheduled', objectId: id })).toHaveLength(0);
    // The same times again are not a reschedule.
    await a.agent('PATCH', `/bookings/${id}`, { body: { start_at: start } });
    expect(await eventsOf(a.tenantId, { type: 'booking.rescheduled', objectId: id })).toHaveLength(0);
    const moved = await a.agent('PATCH', `/bookings/${id}`, { body: { end_at: '2026-12-01T10:00:00Z' } });
    expect(moved.body.end_at).toBe('2026-12-01T10:00:00.000Z');
    const events = await eventsOf(a.tenantId, { type: 'booking.rescheduled', objectId: id });
    expect(events.map((e) => e.data.previous)).toEqual([{ start_at: start, end_at: end, resource_id: null }]);
  });

  it('checks end_at against the stored start_at (422) and changes nothing', async () => {
    const { id } = await givenBooking(a.admin, 'pending');
    const res = await a.agent('PATCH', `/bookings/${id}`, { body: { end_at: '2026-12-01T08:00:00Z' } });
    expectProblemCode(res, 422, 'validation_failed');
    expect((await a.agent('GET', `/bookings/${id}`)).body.end_at).toBe(end);
  });

  it('never reschedules a booking that a concurrent cancel made final', async () => {
    for (let round = 0; round < 5; round++) {
      const { id } = await givenBooking(a.admin, 'confirmed');
      const [patch, cancel] = await Promise.all([
        a.agent('PATCH', `/bookings/${id}`, {
          body: { start_at: '2026-12-05T09:00:00Z', end_at: '2026-12-05T10:00:00Z' },
        }),
        a.agent('POST', `/bookings/${id}/cancel`),
      ]);
      expect(cancel.status).toBe(200);
      const events = (await eventsOf(a.tenantId, { objectId: id })).map((e) => e.type);
      if (patch.status === 200) {
        // The reschedule committed first, then the cancel.
        expect(events.slice(-2)).toEqual(['booking.rescheduled', 'booking.cancelled']);
        expect(cancel.body.start_at).toBe('2026-12-05T09:00:00.000Z');
      } else {
        expectProblemCode(patch, 409, 'invalid_transition');
        expect(events).not.toContain('booking.rescheduled');
        expect((await a.agent('GET', `/bookings/${id}`)).body.start_at).toBe(start);
      }
    }
  });

  it.each(['cancelled', 'completed'] as const)('refuses to change a %s booking (409)', async (status) => {
    const { id } = await givenBooking(a.admin, status);
    expectProblemCode(
      await a.agent('PATCH', `/bookings/${id}`, { body: { notes: 'late' } }),
      409,
      'invalid_transition',
    );
    expectProblemCode(
      await a.agent('PATCH', `/bookings/${id}`, {
        body: { start_at: '2026-12-03T09:00:00Z', end_at: '2026-12-03T10:00:00Z' },
      }),
      409,
      'invalid_transition',
    );
    expect(await eventsOf(a.tenantId, { type: 'booking.rescheduled', objectId: id })).toHaveLength(0);
  });
});

describe('list', () => {
  it('filters by status, time window and customer email, and pages newest first', async () => {
    const t = await newTenant('List');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const booking = await givenBooking(t.admin, 'pending', {
        customer: { name: `C${i}`, email: i % 2 ? 'Odd@Example.test' : 'even@example.test' },
        start_at: `2026-12-0${i + 1}T09:00:00Z`,
        end_at: `2026-12-0${i + 1}T10:00:00Z`,
      });
      ids.push(booking.id);
    }
    await t.admin('POST', `/bookings/${ids[1]}/confirm`);

    const page1 = await t.agent('GET', '/bookings?limit=2');
    expect(page1.body.data.map((x: { id: string }) => x.id)).toEqual([ids[4], ids[3]]);
    // The list reads its rows in its own statement: each one as GET /bookings/{id} shows it.
    expect(page1.body.data[0]).toEqual((await t.agent('GET', `/bookings/${ids[4]}`)).body);
    const page2 = await t.agent('GET', `/bookings?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body.data.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    const page3 = await t.agent('GET', `/bookings?limit=2&cursor=${page2.body.next_cursor}`);
    expect(page3.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });

    const confirmed = await t.agent('GET', '/bookings?status=confirmed');
    expect(confirmed.body.data.map((x: { id: string }) => x.id)).toEqual([ids[1]]);
    const window = await t.agent('GET', '/bookings?from=2026-12-02T09:00:00Z&to=2026-12-04T09:00:00Z');
    expect(window.body.data.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    const odd = await t.agent('GET', '/bookings?customer_email=odd@example.test');
    expect(odd.body.data.map((x: { id: string }) => x.id)).toEqual([ids[3], ids[1]]);
    // The e-mail is compared without case, and literally: `_` and `%` are not wildcards.
    const upper = await t.agent('GET', '/bookings?customer_email=ODD@Example.TEST');
    expect(upper.body.data.map((x: { id: string }) => x.id)).toEqual([ids[3], ids[1]]);
    const wildcard = await t.agent('GET', '/bookings?customer_email=od_@example.test');
    expect(wildcard.body.data).toEqual([]);
    const combined = await t.agent(
      'GET',
      '/bookings?customer_email=odd@example.test&status=confirmed&limit=1',
    );
    expect(combined.body.data.map((x: { id: string }) => x.id)).toEqual([ids[1]]);
    expectProblemCode(await t.agent('GET', '/bookings?status=lost'), 422, 'validation_failed');
    expectProblemCode(await t.agent('GET', '/bookings?cursor=garbage'), 422, 'validation_failed');
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another tenant's booking on every route and changes nothing", async () => {
    const { id } = await givenBooking(b.admin, 'confirmed');
    const before = (await b.admin('GET', `/bookings/${id}`)).body;
    expectProblemCode(await a.admin('GET', `/bookings/${id}`), 404, 'not_found');
    expectProblemCode(await a.admin('PATCH', `/bookings/${id}`, { body: { notes: 'x' } }), 404, 'not_found');
    for (const action of ['confirm', 'cancel', 'complete']) {
      expectProblemCode(await a.admin('POST', `/bookings/${id}/${action}`), 404, 'not_found');
    }
    expect(
      (await a.admin('GET', '/bookings?limit=100')).body.data.map((x: { id: string }) => x.id),
    ).not.toContain(id);
    expect((await b.admin('GET', `/bookings/${id}`)).body).toEqual(before);
    expect(await eventsOf(a.tenantId, { objectId: id })).toHaveLength(0);
  });
});
