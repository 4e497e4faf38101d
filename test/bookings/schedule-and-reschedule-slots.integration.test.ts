// What the dashboard's bookings calendar reads, through the REST API on a real database: a resource's
// schedule (its working hours in the window, expanded in its zone across a DST change; bookings that
// overlap the window, not only those starting in it) and the slot search for moving a booking
// (reschedule_booking_id: the booking's own interval does not count against it; another tenant's
// booking is refused without a trace), and the weekly hours editor's field errors (paths that name the
// interval, `weekly_hours.mon[1]`, as every other field error does).
import { describe, expect, it } from 'vitest';
import {
  dayFromNow,
  everyDay,
  givenResource,
  givenService,
  serviceBooking,
  utc,
} from '../support/booking-fixtures';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';

const { tenant: a, other: b } = apiSuite({ other: true, agent: true });

describe('GET /resources/{id}/schedule: working hours in the window, bookings overlapping it', () => {
  it('answers the working hours as UTC intervals in the resource’s zone, across the spring change', async () => {
    const r = await givenResource(a.admin, {
      time_zone: 'Europe/Madrid',
      weekly_hours: {
        ...everyDay([]),
        sat: [
          { start: '09:00', end: '13:00' },
          { start: '13:00', end: '14:00' },
          { start: '16:00', end: '24:00' },
        ],
        sun: [{ start: '09:00', end: '13:00' }],
      },
    });
    // Madrid moves from +01:00 to +02:00 in the night of Saturday 27 to Sunday 28 March 2027.
    const res = await a.agent(
      'GET',
      `/resources/${r.id}/schedule?from=2027-03-26T23:00:00Z&to=2027-03-28T22:00:00Z`,
    );
    expect(res.status).toBe(200);
    expect(res.body.working_hours).toEqual([
      // Touching intervals join; 24:00 ends the day at local midnight.
      { start: '2027-03-27T08:00:00.000Z', end: '2027-03-27T13:00:00.000Z' },
      { start: '2027-03-27T15:00:00.000Z', end: '2027-03-27T23:00:00.000Z' },
      // Sunday's 09:00 is 07:00Z after the change.
      { start: '2027-03-28T07:00:00.000Z', end: '2027-03-28T11:00:00.000Z' },
    ]);
    // Clipped to the window.
    const clipped = await a.agent(
      'GET',
      `/resources/${r.id}/schedule?from=2027-03-27T10:00:00Z&to=2027-03-27T16:00:00Z`,
    );
    expect(clipped.body.working_hours).toEqual([
      { start: '2027-03-27T10:00:00.000Z', end: '2027-03-27T13:00:00.000Z' },
      { start: '2027-03-27T15:00:00.000Z', end: '2027-03-27T16:00:00.000Z' },
    ]);
  });

  it('lists a booking that started before the window and overlaps it, and none that ended before', async () => {
    const r = await givenResource(a.admin, { weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]) });
    const s = await givenService(a.admin, [r.id], { duration_minutes: 120 });
    const day = dayFromNow(20);
    const next = dayFromNow(21);
    const late = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '23:00')) });
    const early = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '20:00')) });
    expect([late.status, early.status]).toEqual([201, 201]);
    const res = await a.agent(
      'GET',
      `/resources/${r.id}/schedule?from=${utc(next, '00:00')}&to=${utc(dayFromNow(22), '00:00')}`,
    );
    expect(res.body.bookings.map((x: { id: string }) => x.id)).toEqual([late.body.id]);
  });
});

describe('weekly hours problems name their interval as every field error does', () => {
  it('answers weekly_hours.tue[1] for an overlap and weekly_hours.wed[0].end for an end before its start', async () => {
    const res = await a.admin('POST', '/resources', {
      body: {
        name: 'X',
        time_zone: 'UTC',
        weekly_hours: {
          tue: [
            { start: '09:00', end: '12:00' },
            { start: '11:00', end: '14:00' },
          ],
          wed: [{ start: '12:00', end: '09:00' }],
        },
      },
    });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors).toEqual([
      { path: 'weekly_hours.tue[1]', message: 'Overlaps 09:00–12:00 of the same day' },
      { path: 'weekly_hours.wed[0].end', message: 'Must be after start' },
    ]);
  });
});

describe('GET /slots?reschedule_booking_id: times to move a booking to', () => {
  it('offers times overlapping the booking’s own interval, which the reschedule then accepts', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id], { slot_interval_minutes: 30 });
    const day = dayFromNow(25);
    const booking = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(day, '10:00'), { resource_id: r.id }),
    });
    expect(booking.status).toBe(201);
    const starts = async (extra = '') =>
      (
        await a.agent('GET', `/slots?service_id=${s.id}&start=${day}&end=${day}&resource_id=${r.id}${extra}`)
      ).body.days[day].map((x: { start: string }) => x.start.slice(11, 16));
    // Without it, the booking takes the starts 09:30, 10:00 and 10:30; with it, every start of the day is offered.
    expect(await starts()).not.toContain('10:30');
    const moving = await starts(`&reschedule_booking_id=${booking.body.id}`);
    expect(moving).toContain('10:30');
    expect(moving).toHaveLength(15); // 09:00 … 16:00 every 30 minutes
    const moved = await a.agent('POST', `/bookings/${booking.body.id}/reschedule`, {
      body: { start_at: utc(day, '10:30') },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ start_at: utc(day, '10:30'), resource_id: r.id });
    // Another booking's interval still counts.
    const other = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(day, '14:00'), { resource_id: r.id }),
    });
    expect(await starts(`&reschedule_booking_id=${booking.body.id}`)).not.toContain('14:00');
    expect(other.status).toBe(201);
  });

  it('refuses an unknown booking or another tenant’s with 422, naming nothing of it', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const theirs = await givenResource(b.admin);
    const theirService = await givenService(b.admin, [theirs.id]);
    const day = dayFromNow(26);
    const foreign = await b.admin('POST', '/bookings', {
      body: serviceBooking(theirService.id, utc(day, '10:00')),
    });
    expect(foreign.status).toBe(201);
    for (const id of [foreign.body.id, 'bkg_missing']) {
      const res = await a.agent(
        'GET',
        `/slots?service_id=${s.id}&start=${day}&end=${day}&reschedule_booking_id=${id}`,
      );
      expectProblemCode(res, 422, 'validation_failed');
      expect(res.body.errors).toEqual([{ path: 'reschedule_booking_id', message: 'No such booking' }]);
      expect(res.text).not.toContain(theirs.id);
    }
  });
});

describe('GET /resources/{id}/schedule: a calendar window of bookings, holds and time off', () => {
  it('answers the resource, its bookings starting in the window and its time off', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const day = dayFromNow(40);
    const hold = new Date(Date.now() + 3_600_000).toISOString();
    const booked = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(day, '10:00'), { hold_expires_at: hold }),
    });
    const off = await a.admin('POST', `/resources/${r.id}/time-off`, {
      body: { start_at: utc(day, '13:00'), end_at: utc(day, '14:00') },
    });
    const res = await a.agent(
      'GET',
      `/resources/${r.id}/schedule?from=${utc(day, '00:00')}&to=${utc(dayFromNow(41), '00:00')}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.resource.id).toBe(r.id);
    expect(res.body.bookings).toEqual([booked.body]);
    expect(res.body.time_off).toEqual([off.body]);
    expectProblemCode(
      await a.agent(
        'GET',
        `/resources/${r.id}/schedule?from=${utc(day, '00:00')}&to=${utc(dayFromNow(140), '00:00')}`,
      ),
      422,
      'validation_failed',
    );
  });
});
