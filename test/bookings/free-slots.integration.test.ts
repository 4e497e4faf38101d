// GET /slots: dates inclusive in the service's time_zone, at most 31 days, every day present, UTC
// starts on the grid with the resources free at each; min notice, the booking window and inactive
// resources applied.
import { describe, expect, it } from 'vitest';
import { dayFromNow, everyDay, givenResource, givenService, utc } from '../support/booking-fixtures';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite, fakeGraphSuite } from '../support/harness';

fakeGraphSuite();
const { tenant: a } = apiSuite({ agent: true });

const later = dayFromNow(10);

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
