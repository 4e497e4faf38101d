// Resources and their time off through the REST API: an IANA time_zone and weekly_hours, admins write
// and agents read, a resource with a future booking is not deleted, and time off takes its slots.
import { describe, expect, it } from 'vitest';
import { dayFromNow, givenResource, givenService, serviceBooking, utc } from '../support/booking-fixtures';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite, fakeGraphSuite } from '../support/harness';

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
