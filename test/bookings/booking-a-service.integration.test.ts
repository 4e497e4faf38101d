// Booking a service through the REST API: end = start + duration, the checks, the choice of a
// resource and 409 slot_unavailable; reschedule under the same rules with the booking's own interval
// ignored; no-show once the start has passed; the bounds of a hold. Holds expiring, reminders and
// timers: test/timers/; the race for one slot: no-double-booking-under-races.integration.test.ts.
import { describe, expect, it } from 'vitest';
import { pgPool } from '@/server/db/pool';
import {
  asEventObject,
  dayFromNow,
  everyDay,
  givenResource,
  givenService,
  serviceBooking,
  utc,
} from '../support/booking-fixtures';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite, fakeGraphSuite } from '../support/harness';

fakeGraphSuite();
const { tenant: a } = apiSuite({ agent: true });

const later = dayFromNow(10);

describe('POST /bookings of a service: end = start + duration, checks, resource choice, 409 slot_unavailable', () => {
  it('creates it pending on the free resource with end_at from the duration, and booking.created', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id], { duration_minutes: 45, name: 'Consultation' });
    const res = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(later, '10:00'), {
        customer: { name: 'Grace', phone: '34600111222' },
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'pending',
      service_id: s.id,
      resource_id: r.id,
      service: 'Consultation',
      start_at: utc(later, '10:00'),
      end_at: utc(later, '10:45'),
      hold_expires_at: null,
      customer: { name: 'Grace', phone: '+34600111222' },
    });
    const [event] = await eventsOf(a.tenantId, { type: 'booking.created', objectId: res.body.id });
    expect(event.data.object).toEqual(asEventObject(res.body));
  });

  it('refuses end_at with a service (422), a resource not of the service (422), an unknown service (422)', async () => {
    const r = await givenResource(a.admin);
    const other = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const withEnd = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(later, '10:00'), { end_at: utc(later, '11:00') }),
    });
    expectProblemCode(withEnd, 422, 'validation_failed');
    expect(withEnd.body.errors[0].path).toBe('end_at');
    const wrong = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(later, '10:00'), { resource_id: other.id }),
    });
    expect(wrong.body.errors).toEqual([{ path: 'resource_id', message: 'Not a resource of this service' }]);
    const unknown = await a.agent('POST', '/bookings', {
      body: serviceBooking('svc_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q', utc(later, '10:00')),
    });
    expect(unknown.body.errors).toEqual([{ path: 'service_id', message: 'No such service' }]);
  });

  it.each([
    ['before working hours', '08:30'],
    ['running past working hours', '16:30'],
    ['outside working hours entirely', '20:00'],
  ])('is not free %s: 409 slot_unavailable, nothing stored', async (_, time) => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const before = await eventsOf(a.tenantId, { type: 'booking.created' });
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, time)) }),
      409,
      'slot_unavailable',
    );
    expect(await eventsOf(a.tenantId, { type: 'booking.created' })).toHaveLength(before.length);
  });

  it('is not free too soon for min notice, or beyond the booking window', async () => {
    const r = await givenResource(a.admin, { weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]) });
    const notice = await givenService(a.admin, [r.id], { min_notice_minutes: 24 * 60 });
    const soon = new Date(Math.ceil((Date.now() + 3 * 3_600_000) / 3_600_000) * 3_600_000).toISOString();
    const res = await a.agent('POST', '/bookings', { body: serviceBooking(notice.id, soon) });
    expectProblemCode(res, 409, 'slot_unavailable');
    expect(res.body.detail).toMatch(/notice/);
    const window = await givenService(a.admin, [r.id], { booking_window_days: 5 });
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(window.id, utc(dayFromNow(6), '10:00')) }),
      409,
      'slot_unavailable',
    );
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(window.id, utc(dayFromNow(4), '10:00')) }))
        .status,
    ).toBe(201);
  });

  it('half-open intervals: 10:00–11:00 and 11:00–12:00 do not clash; 10:30 does', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '10:00')) })).status,
    ).toBe(201);
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '11:00')) })).status,
    ).toBe(201);
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '09:00')) })).status,
    ).toBe(201);
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '10:30')) }),
      409,
      'slot_unavailable',
    );
  });

  it("buffers of both bookings: each booking is blocked with its own service's buffers", async () => {
    const r = await givenResource(a.admin);
    const cleanUp = await givenService(a.admin, [r.id], { buffer_after_minutes: 30 });
    const prep = await givenService(a.admin, [r.id], { buffer_before_minutes: 15 });
    const plain = await givenService(a.admin, [r.id]);
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(cleanUp.id, utc(later, '10:00')) })).status,
    ).toBe(201);
    // 11:00 clashes with the first booking's buffer after (until 11:30) …
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(plain.id, utc(later, '11:00')) }),
      409,
      'slot_unavailable',
    );
    // … 11:30 does not, but a service with 15 minutes before reaches back to 11:15.
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(prep.id, utc(later, '11:30')) }),
      409,
      'slot_unavailable',
    );
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(plain.id, utc(later, '11:30')) })).status,
    ).toBe(201);
    // Buffers may lie outside working hours: 16:00–17:00 with 30 minutes after ends at 17:30.
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(cleanUp.id, utc(later, '16:00')) })).status,
    ).toBe(201);
  });

  it('takes the free resource with the fewest bookings that day, then the next one, then 409', async () => {
    const r1 = await givenResource(a.admin, { name: 'One' });
    const r2 = await givenResource(a.admin, { name: 'Two' });
    const s = await givenService(a.admin, [r1.id, r2.id]);
    const day = dayFromNow(20);
    // r1 gets a booking at 09:00 by request; the next unplaced booking goes to r2 (fewer that day).
    expect(
      (
        await a.agent('POST', '/bookings', {
          body: serviceBooking(s.id, utc(day, '09:00'), { resource_id: r1.id }),
        })
      ).body.resource_id,
    ).toBe(r1.id);
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '14:00')) })).body
        .resource_id,
    ).toBe(r2.id);
    // At 09:00 only r2 is free.
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '09:00')) })).body
        .resource_id,
    ).toBe(r2.id);
    // 14:00 again: only r1 is free now.
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '14:00')) })).body
        .resource_id,
    ).toBe(r1.id);
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '14:00')) }),
      409,
      'slot_unavailable',
    );
  });

  it('customer.phone is E.164 with the + optional, stored as +digits and matched by its digits', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const phone = `4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
    const res = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(later, '13:00'), { customer: { name: 'X', phone } }),
    });
    expect(res.body.customer.phone).toBe(`+${phone}`);
    const found = await a.agent('GET', `/bookings?customer_phone=${phone}`);
    expect(found.body.data.map((x: { id: string }) => x.id)).toEqual([res.body.id]);
    const plus = await a.agent('GET', `/bookings?customer_phone=%2B${phone}`);
    expect(plus.body.data.map((x: { id: string }) => x.id)).toEqual([res.body.id]);
    for (const bad of ['12', '+0123456789', '+34 600 111', 'phone']) {
      const refused = await a.agent('POST', '/bookings', {
        body: serviceBooking(s.id, utc(later, '14:00'), { customer: { name: 'X', phone: bad } }),
      });
      expectProblemCode(refused, 422, 'validation_failed');
    }
  });

  it('free-form bookings (no service_id) keep their behaviour and block nothing', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const free = await a.agent('POST', '/bookings', {
      body: {
        customer: { name: 'Walk-in' },
        service: 'Anything',
        start_at: utc(later, '15:00'),
        end_at: utc(later, '16:00'),
      },
    });
    expect(free.status).toBe(201);
    expect(free.body).toMatchObject({ service_id: null, resource_id: null, service: 'Anything' });
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '15:00')) })).status,
    ).toBe(201);
    expectProblemCode(
      await a.agent('POST', '/bookings', {
        body: { customer: { name: 'X' }, start_at: utc(later, '15:00') },
      }),
      422,
      'validation_failed',
    );
  });

  it('agents may book; the database holds each booking with its blocked interval', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id], { buffer_before_minutes: 10, buffer_after_minutes: 20 });
    const res = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '12:00')) });
    const { rows } = await pgPool().query('select blocked_from, blocked_until from bookings where id = $1', [
      res.body.id,
    ]);
    expect(rows[0].blocked_from.toISOString()).toBe(utc(later, '11:50'));
    expect(rows[0].blocked_until.toISOString()).toBe(utc(later, '13:20'));
  });
});

describe('POST /bookings/{id}/reschedule: same checks, own interval ignored, keep resource, 409 untouched', () => {
  it('moves within its own interval, keeps its resource and emits booking.rescheduled with previous', async () => {
    const r1 = await givenResource(a.admin);
    const r2 = await givenResource(a.admin);
    const s = await givenService(a.admin, [r1.id, r2.id]);
    const day = dayFromNow(30);
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(day, '10:00'), { resource_id: r1.id }),
    });
    const moved = await a.agent('POST', `/bookings/${booking.body.id}/reschedule`, {
      body: { start_at: utc(day, '10:30') },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      start_at: utc(day, '10:30'),
      end_at: utc(day, '11:30'),
      resource_id: r1.id,
    });
    const [event] = await eventsOf(a.tenantId, { type: 'booking.rescheduled', objectId: booking.body.id });
    expect(event.data).toEqual({
      object: asEventObject(moved.body),
      previous: { start_at: utc(day, '10:00'), end_at: utc(day, '11:00'), resource_id: r1.id },
    });
  });

  it('moves to another free resource when its own is taken, or to the one asked for', async () => {
    const r1 = await givenResource(a.admin);
    const r2 = await givenResource(a.admin);
    const s = await givenService(a.admin, [r1.id, r2.id]);
    const day = dayFromNow(31);
    const mine = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(day, '10:00'), { resource_id: r1.id }),
    });
    await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(day, '13:00'), { resource_id: r1.id }),
    });
    const moved = await a.agent('POST', `/bookings/${mine.body.id}/reschedule`, {
      body: { start_at: utc(day, '13:00') },
    });
    expect(moved.body.resource_id).toBe(r2.id);
    const asked = await a.agent('POST', `/bookings/${mine.body.id}/reschedule`, {
      body: { start_at: utc(day, '15:00'), resource_id: r1.id },
    });
    expect(asked.body).toMatchObject({ resource_id: r1.id, start_at: utc(day, '15:00') });
  });

  it('409 slot_unavailable leaves the booking untouched; a final booking is 409 invalid_transition', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const day = dayFromNow(32);
    const mine = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '10:00')) });
    await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '12:00')) });
    const events = await eventsOf(a.tenantId, { objectId: mine.body.id });
    expectProblemCode(
      await a.agent('POST', `/bookings/${mine.body.id}/reschedule`, {
        body: { start_at: utc(day, '12:30') },
      }),
      409,
      'slot_unavailable',
    );
    expectProblemCode(
      await a.agent('POST', `/bookings/${mine.body.id}/reschedule`, {
        body: { start_at: utc(day, '20:00') },
      }),
      409,
      'slot_unavailable',
    );
    expect((await a.agent('GET', `/bookings/${mine.body.id}`)).body).toEqual(mine.body);
    expect(await eventsOf(a.tenantId, { objectId: mine.body.id })).toHaveLength(events.length);
    await a.agent('POST', `/bookings/${mine.body.id}/cancel`, { body: {} });
    expectProblemCode(
      await a.agent('POST', `/bookings/${mine.body.id}/reschedule`, {
        body: { start_at: utc(day, '14:00') },
      }),
      409,
      'invalid_transition',
    );
  });

  it('PATCH of start_at on a service booking follows the same rule; end_at is refused', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const day = dayFromNow(33);
    const mine = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '10:00')) });
    await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '12:00')) });
    expectProblemCode(
      await a.agent('PATCH', `/bookings/${mine.body.id}`, { body: { start_at: utc(day, '11:30') } }),
      409,
      'slot_unavailable',
    );
    expectProblemCode(
      await a.agent('PATCH', `/bookings/${mine.body.id}`, { body: { end_at: utc(day, '11:30') } }),
      422,
      'validation_failed',
    );
    const patched = await a.agent('PATCH', `/bookings/${mine.body.id}`, {
      body: { start_at: utc(day, '14:00'), notes: 'moved' },
    });
    expect(patched.body).toMatchObject({
      start_at: utc(day, '14:00'),
      end_at: utc(day, '15:00'),
      notes: 'moved',
    });
    const events = await eventsOf(a.tenantId, { type: 'booking.rescheduled', objectId: mine.body.id });
    expect(events.map((e) => e.data.previous)).toEqual([
      { start_at: utc(day, '10:00'), end_at: utc(day, '11:00'), resource_id: r.id },
    ]);
  });
});

describe('POST /bookings/{id}/no-show: confirmed → no_show once start_at has passed', () => {
  it('refuses before the start (409) and records booking.no_show after', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const future = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '16:00')) });
    await a.agent('POST', `/bookings/${future.body.id}/confirm`);
    expectProblemCode(
      await a.agent('POST', `/bookings/${future.body.id}/no-show`),
      409,
      'invalid_transition',
    );
    const past = await a.agent('POST', '/bookings', {
      body: {
        customer: { name: 'Late' },
        start_at: utc(dayFromNow(-1), '10:00'),
        end_at: utc(dayFromNow(-1), '11:00'),
      },
    });
    expectProblemCode(await a.agent('POST', `/bookings/${past.body.id}/no-show`), 409, 'invalid_transition'); // still pending
    await a.agent('POST', `/bookings/${past.body.id}/confirm`);
    const res = await a.agent('POST', `/bookings/${past.body.id}/no-show`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('no_show');
    const [event] = await eventsOf(a.tenantId, { type: 'booking.no_show', objectId: past.body.id });
    expect(event.data.object).toEqual(asEventObject(res.body));
    // Final: nothing moves it again.
    expectProblemCode(
      await a.agent('POST', `/bookings/${past.body.id}/cancel`, { body: {} }),
      409,
      'invalid_transition',
    );
  });
});

describe('holds', () => {
  // A paid service's hold and its Checkout Session:
  // test/payments/paid-bookings-through-checkout.integration.test.ts.
  it('refuses a hold in the past or more than 24 h ahead (422)', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    for (const at of [new Date(Date.now() - 1000), new Date(Date.now() + 25 * 3_600_000)]) {
      const res = await a.agent('POST', '/bookings', {
        body: serviceBooking(s.id, utc(later, '12:00'), { hold_expires_at: at.toISOString() }),
      });
      expectProblemCode(res, 422, 'validation_failed');
      expect(res.body.errors[0].path).toBe('hold_expires_at');
    }
  });
});
