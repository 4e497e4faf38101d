// Bookings in depth, one describe per rule of the bookings reference (resources, time off, services,
// slots, bookings of a service, reschedule, no-show): each rule through the REST API on a real
// database. Holds, reminders and timers: bookings-timers.integration.test.ts; the race for one slot:
// bookings-concurrency.integration.test.ts; DST across 2027: bookings-dst.integration.test.ts.
import { describe, expect, it } from 'vitest';
import { pgPool } from '@/server/db/pool';
import { dayFromNow, everyDay, givenResource, givenService, serviceBooking, utc } from './booking-fixtures';
import { givenChannel } from './builders';
import { eventsOf, expectProblemCode } from './domain-fixtures';
import { apiSuite, fakeGraphSuite } from './harness';

fakeGraphSuite();
const { tenant: a, other: b } = apiSuite({ other: true, agent: true });

const later = dayFromNow(10);

describe('resources: IANA time_zone, weekly_hours, CRUD (admin writes, agents read)', () => {
  it('creates (201), reads, lists, changes and deletes (204) a resource', async () => {
    const created = await a.admin('POST', '/resources', {
      body: {
        name: 'Room 1',
        kind: 'room',
        time_zone: 'europe/madrid',
        weekly_hours: {
          mon: [
            { start: '09:00', end: '13:00' },
            { start: '13:00', end: '24:00' },
          ],
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Room 1',
      kind: 'room',
      time_zone: 'Europe/Madrid',
      is_active: true,
      weekly_hours: {
        mon: [
          { start: '09:00', end: '13:00' },
          { start: '13:00', end: '24:00' },
        ],
        tue: [],
        sun: [],
      },
    });
    expect(created.body.id).toMatch(/^res_/);
    expect((await a.agent('GET', `/resources/${created.body.id}`)).body).toEqual(created.body);
    const list = await a.agent('GET', '/resources');
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(created.body.id);
    const patched = await a.admin('PATCH', `/resources/${created.body.id}`, { body: { is_active: false } });
    expect(patched.body).toMatchObject({ is_active: false, name: 'Room 1' });
    expect((await a.admin('DELETE', `/resources/${created.body.id}`)).status).toBe(204);
    expectProblemCode(await a.admin('GET', `/resources/${created.body.id}`), 404, 'not_found');
  });

  it.each([
    ['an unknown zone', { time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
    ['an offset instead of a zone', { time_zone: '+01:00' }, 'time_zone'],
    [
      'overlapping intervals of one day',
      {
        weekly_hours: {
          tue: [
            { start: '09:00', end: '12:00' },
            { start: '11:00', end: '14:00' },
          ],
        },
      },
      'weekly_hours.tue.1',
    ],
    [
      'an end before its start',
      { weekly_hours: { wed: [{ start: '12:00', end: '09:00' }] } },
      'weekly_hours.wed.0.end',
    ],
    [
      'a start of 24:00',
      { weekly_hours: { wed: [{ start: '24:00', end: '24:00' }] } },
      'weekly_hours.wed.0.start',
    ],
    [
      'a malformed time',
      { weekly_hours: { wed: [{ start: '9:00', end: '12:00' }] } },
      'weekly_hours.wed.0.start',
    ],
  ])('refuses %s with 422 and stores nothing', async (_, patch, path) => {
    const before = await a.admin('GET', '/resources?limit=100');
    const res = await a.admin('POST', '/resources', {
      body: { name: 'X', time_zone: 'UTC', weekly_hours: {}, ...patch },
    });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path.replace(/\[(\d+)\]/g, '.$1'))).toContain(path);
    expect((await a.admin('GET', '/resources?limit=100')).body.data).toHaveLength(before.body.data.length);
  });

  it('agents read resources but cannot write them (403)', async () => {
    const r = await givenResource(a.admin);
    expectProblemCode(
      await a.agent('POST', '/resources', { body: { name: 'X', time_zone: 'UTC', weekly_hours: {} } }),
      403,
      'forbidden',
    );
    expectProblemCode(
      await a.agent('PATCH', `/resources/${r.id}`, { body: { name: 'Y' } }),
      403,
      'forbidden',
    );
    expectProblemCode(await a.agent('DELETE', `/resources/${r.id}`), 403, 'forbidden');
    expect((await a.agent('GET', `/resources/${r.id}`)).status).toBe(200);
  });

  it('DELETE of a resource with a future active booking: 409 resource_in_use, nothing deleted', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const booked = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '10:00')) });
    expect(booked.status).toBe(201);
    expectProblemCode(await a.admin('DELETE', `/resources/${r.id}`), 409, 'resource_in_use');
    expect((await a.admin('GET', `/resources/${r.id}`)).status).toBe(200);
    // Once the booking is cancelled the resource can go, and the service stops offering it.
    await a.agent('POST', `/bookings/${booked.body.id}/cancel`, { body: {} });
    expect((await a.admin('DELETE', `/resources/${r.id}`)).status).toBe(204);
    expect((await a.admin('GET', `/services/${s.id}`)).body.resource_ids).toEqual([]);
  });

  it("another tenant's resource is not found", async () => {
    const r = await givenResource(b.admin);
    expectProblemCode(await a.admin('GET', `/resources/${r.id}`), 404, 'not_found');
    expectProblemCode(await a.admin('DELETE', `/resources/${r.id}`), 404, 'not_found');
  });
});

describe('time off: create (201), list, delete (204); the resource is not free then', () => {
  it('takes the slots of its time away and refuses bookings in it', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const off = await a.admin('POST', `/resources/${r.id}/time-off`, {
      body: { start_at: utc(later, '10:00'), end_at: utc(later, '12:00'), reason: 'Dentist' },
    });
    expect(off.status).toBe(201);
    expect(off.body).toMatchObject({ resource_id: r.id, start_at: utc(later, '10:00'), reason: 'Dentist' });
    const listed = await a.agent('GET', `/resources/${r.id}/time-off`);
    expect(listed.body.data).toEqual([off.body]);
    const slots = await a.agent('GET', `/slots?service_id=${s.id}&start=${later}&end=${later}`);
    expect(slots.body.days[later].map((x: { start: string }) => x.start.slice(11, 16))).toEqual([
      '09:00',
      '12:00',
      '13:00',
      '14:00',
      '15:00',
      '16:00',
    ]);
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '11:00')) }),
      409,
      'slot_unavailable',
    );
    expect((await a.admin('DELETE', `/resources/${r.id}/time-off/${off.body.id}`)).status).toBe(204);
    expect((await a.agent('GET', `/resources/${r.id}/time-off`)).body.data).toEqual([]);
    expect(
      (await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(later, '11:00')) })).status,
    ).toBe(201);
  });

  it('refuses an end before the start (422) and an unknown time off (404)', async () => {
    const r = await givenResource(a.admin);
    expectProblemCode(
      await a.admin('POST', `/resources/${r.id}/time-off`, {
        body: { start_at: utc(later, '10:00'), end_at: utc(later, '09:00') },
      }),
      422,
      'validation_failed',
    );
    expectProblemCode(
      await a.admin('DELETE', `/resources/${r.id}/time-off/tof_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q`),
      404,
      'not_found',
    );
  });
});

describe('services: every field and its range', () => {
  it('creates with defaults: buffers 0, notice 0, window 90, grid = duration, payment none, no reminders', async () => {
    const r = await givenResource(a.admin);
    const res = await a.admin('POST', '/services', {
      body: { name: 'Cut', duration_minutes: 45, resource_ids: [r.id] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Cut',
      duration_minutes: 45,
      resource_ids: [r.id],
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      min_notice_minutes: 0,
      booking_window_days: 90,
      slot_interval_minutes: 45,
      price: null,
      payment: 'none',
      deposit_amount: null,
      reminders: [],
      is_active: true,
    });
    expect(res.body.id).toMatch(/^svc_/);
    expect((await a.agent('GET', `/services/${res.body.id}`)).body).toEqual(res.body);
    const patched = await a.admin('PATCH', `/services/${res.body.id}`, {
      body: {
        price: { amount: 3000, currency: 'EUR' },
        payment: 'deposit',
        deposit_amount: 1000,
        slot_interval_minutes: 15,
      },
    });
    expect(patched.body).toMatchObject({
      price: { amount: 3000, currency: 'EUR' },
      payment: 'deposit',
      deposit_amount: 1000,
      slot_interval_minutes: 15,
    });
    expect((await a.admin('DELETE', `/services/${res.body.id}`)).status).toBe(204);
  });

  it.each([
    ['a duration under 5', { duration_minutes: 4 }, 'duration_minutes'],
    ['a duration over 1440', { duration_minutes: 1441 }, 'duration_minutes'],
    ['no resources', { resource_ids: [] }, 'resource_ids'],
    ['an unknown resource', { resource_ids: ['res_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q'] }, 'resource_ids[0]'],
    ['a buffer over 240', { buffer_after_minutes: 241 }, 'buffer_after_minutes'],
    ['a negative buffer', { buffer_before_minutes: -1 }, 'buffer_before_minutes'],
    ['a window of 0 days', { booking_window_days: 0 }, 'booking_window_days'],
    ['a window over 730 days', { booking_window_days: 731 }, 'booking_window_days'],
    ['payment without a price', { payment: 'full' }, 'price'],
    [
      'a deposit without its amount',
      { payment: 'deposit', price: { amount: 1000, currency: 'EUR' } },
      'deposit_amount',
    ],
    [
      'a deposit over the price',
      { payment: 'deposit', price: { amount: 1000, currency: 'EUR' }, deposit_amount: 1001 },
      'deposit_amount',
    ],
    [
      'a deposit amount without payment deposit',
      { price: { amount: 1000, currency: 'EUR' }, deposit_amount: 100 },
      'deposit_amount',
    ],
    ['an unknown currency', { price: { amount: 1000, currency: 'EUD' } }, 'price.currency'],
    ['a payment mode that does not exist', { payment: 'later' }, 'payment'],
  ])('refuses %s with 422', async (_, patch, path) => {
    const r = await givenResource(a.admin);
    const res = await a.admin('POST', '/services', {
      body: { name: 'X', duration_minutes: 30, resource_ids: [r.id], ...patch },
    });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("refuses another tenant's resource, reminders on a channel that is not its WhatsApp channel, and more than 3", async () => {
    const own = await givenResource(a.admin);
    const foreign = await givenResource(b.admin);
    const res = await a.admin('POST', '/services', {
      body: { name: 'X', duration_minutes: 30, resource_ids: [own.id, foreign.id] },
    });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors).toEqual([{ path: 'resource_ids[1]', message: 'No such resource' }]);
    const foreignChannel = await givenChannel(b.admin, String(500_000_000 + Math.floor(Math.random() * 1e8)));
    const reminder = (channel_id: string) => ({
      before_minutes: 60,
      channel_id,
      template: { name: 'reminder', language: 'en' },
    });
    const bad = await a.admin('POST', '/services', {
      body: {
        name: 'X',
        duration_minutes: 30,
        resource_ids: [own.id],
        reminders: [reminder(foreignChannel.id)],
      },
    });
    expect(bad.body.errors).toEqual([
      { path: 'reminders[0].channel_id', message: 'No such WhatsApp channel' },
    ]);
    const ownChannel = await givenChannel(a.admin, String(500_000_000 + Math.floor(Math.random() * 1e8)));
    const four = await a.admin('POST', '/services', {
      body: {
        name: 'X',
        duration_minutes: 30,
        resource_ids: [own.id],
        reminders: Array(4).fill(reminder(ownChannel.id)),
      },
    });
    expectProblemCode(four, 422, 'validation_failed');
    const ok = await a.admin('POST', '/services', {
      body: { name: 'X', duration_minutes: 30, resource_ids: [own.id], reminders: [reminder(ownChannel.id)] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.reminders).toEqual([reminder(ownChannel.id)]);
  });

  it('agents read services but cannot write them (403)', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    expect((await a.agent('GET', `/services/${s.id}`)).status).toBe(200);
    expectProblemCode(await a.agent('PATCH', `/services/${s.id}`, { body: { name: 'Y' } }), 403, 'forbidden');
  });
});

describe('GET /slots: dates inclusive in time_zone, at most 31 days, every day present, UTC starts with resource_ids', () => {
  it('lists every date, free starts on the grid, and the resources free at each', async () => {
    const r1 = await givenResource(a.admin, { weekly_hours: everyDay([{ start: '09:00', end: '12:00' }]) });
    const r2 = await givenResource(a.admin, { weekly_hours: everyDay([{ start: '10:00', end: '12:00' }]) });
    const s = await givenService(a.admin, [r1.id, r2.id], {
      duration_minutes: 60,
      slot_interval_minutes: 30,
    });
    const end = dayFromNow(12);
    const res = await a.agent('GET', `/slots?service_id=${s.id}&start=${later}&end=${end}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ service_id: s.id, time_zone: 'UTC' });
    expect(Object.keys(res.body.days)).toEqual([later, dayFromNow(11), end]);
    expect(res.body.days[later]).toEqual([
      { start: utc(later, '09:00'), end: utc(later, '10:00'), resource_ids: [r1.id] },
      { start: utc(later, '09:30'), end: utc(later, '10:30'), resource_ids: [r1.id] },
      { start: utc(later, '10:00'), end: utc(later, '11:00'), resource_ids: [r1.id, r2.id] },
      { start: utc(later, '10:30'), end: utc(later, '11:30'), resource_ids: [r1.id, r2.id] },
      { start: utc(later, '11:00'), end: utc(later, '12:00'), resource_ids: [r1.id, r2.id] },
    ]);
    const one = await a.agent(
      'GET',
      `/slots?service_id=${s.id}&start=${later}&end=${later}&resource_id=${r2.id}`,
    );
    expect(one.body.days[later].map((x: { resource_ids: string[] }) => x.resource_ids)).toEqual([
      [r2.id],
      [r2.id],
      [r2.id],
    ]);
  });

  it('reads dates in time_zone: 09:00 Madrid is 08:00Z in winter and 07:00Z in summer', async () => {
    const r = await givenResource(a.admin, {
      time_zone: 'Europe/Madrid',
      weekly_hours: everyDay([{ start: '09:00', end: '10:00' }]),
    });
    const s = await givenService(a.admin, [r.id]);
    const res = await a.agent(
      'GET',
      `/slots?service_id=${s.id}&start=2027-01-12&end=2027-01-12&time_zone=Europe/Madrid`,
    );
    expect(res.body.days['2027-01-12']).toEqual([
      { start: '2027-01-12T08:00:00.000Z', end: '2027-01-12T09:00:00.000Z', resource_ids: [r.id] },
    ]);
    const summer = await a.agent(
      'GET',
      `/slots?service_id=${s.id}&start=2027-07-12&end=2027-07-12&time_zone=Europe/Madrid`,
    );
    expect(summer.body.days['2027-07-12'][0].start).toBe('2027-07-12T07:00:00.000Z');
    // Read in Tokyo, the same 07:00Z slot falls on the Tokyo date of its start.
    const tokyo = await a.agent(
      'GET',
      `/slots?service_id=${s.id}&start=2027-07-12&end=2027-07-12&time_zone=Asia/Tokyo`,
    );
    expect(tokyo.body.days['2027-07-12'].map((x: { start: string }) => x.start)).toEqual([
      '2027-07-12T07:00:00.000Z',
    ]);
  });

  it.each([
    ['32 days', (s: string) => `service_id=${s}&start=2027-01-01&end=2027-02-01`, 'end'],
    ['an end before the start', (s: string) => `service_id=${s}&start=2027-01-05&end=2027-01-04`, 'end'],
    [
      'an unknown zone',
      (s: string) => `service_id=${s}&start=2027-01-01&end=2027-01-02&time_zone=Nowhere/Land`,
      'time_zone',
    ],
    ['a bad date', (s: string) => `service_id=${s}&start=2027-13-01&end=2027-13-02`, 'start'],
  ])('refuses %s with 422', async (_, query, path) => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const res = await a.agent('GET', `/slots?${query(s.id)}`);
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('allows 31 days and answers an empty list for days nobody works', async () => {
    const r = await givenResource(a.admin, { weekly_hours: { mon: [{ start: '09:00', end: '10:00' }] } });
    const s = await givenService(a.admin, [r.id]);
    const res = await a.agent('GET', `/slots?service_id=${s.id}&start=2027-03-01&end=2027-03-31`);
    expect(Object.keys(res.body.days)).toHaveLength(31);
    expect(res.body.days['2027-03-02']).toEqual([]);
    expect(res.body.days['2027-03-01']).toHaveLength(1); // a Monday
  });

  it('applies min notice, the booking window and inactive resources', async () => {
    const r = await givenResource(a.admin, { weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]) });
    const idle = await givenResource(a.admin, {
      weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]),
      is_active: false,
    });
    const s = await givenService(a.admin, [r.id, idle.id], {
      min_notice_minutes: 600,
      booking_window_days: 1,
    });
    const today = dayFromNow(0);
    const res = await a.agent('GET', `/slots?service_id=${s.id}&start=${today}&end=${dayFromNow(3)}`);
    const starts = Object.values(res.body.days).flat() as { start: string; resource_ids: string[] }[];
    expect(starts.length).toBeGreaterThan(0);
    for (const slot of starts) {
      expect(Date.parse(slot.start)).toBeGreaterThanOrEqual(Date.now() + 600 * 60_000 - 5_000);
      expect(Date.parse(slot.start)).toBeLessThan(Date.now() + 86_400_000);
      expect(slot.resource_ids).toEqual([r.id]);
    }
  });
});

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
    expect(event.data.object).toEqual(res.body);
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
      object: moved.body,
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
    expect(event.data.object).toEqual(res.body);
    // Final: nothing moves it again.
    expectProblemCode(
      await a.agent('POST', `/bookings/${past.body.id}/cancel`, { body: {} }),
      409,
      'invalid_transition',
    );
  });
});

describe('holds', () => {
  // A paid service's hold and its Checkout Session: test/stripe-bookings.integration.test.ts.
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
