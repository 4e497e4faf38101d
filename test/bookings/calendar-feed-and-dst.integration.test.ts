// A resource's private calendar feed, read back with an independent iCalendar parser (node-ical), and
// DST across the 2027 changes in Europe (28 March, 31 October) and America (14 March, 7 November)
// through the API: slots and bookings keep their local times, and the feed carries the right instants.
import ical from 'node-ical';
import { describe, expect, it } from 'vitest';
import { pgPool } from '@/server/db/pool';
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
import { rememberSecret } from '../support/log-scan';

const suite = apiSuite({ other: true, agent: true });
const { tenant: a, other: b, api } = suite;

/** GET of the feed URL as a calendar app would: no headers. */
async function fetchFeed(url: string) {
  const local = new URL(url);
  const res = await fetch(`${suite.url}${local.pathname}${local.search}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('calendar feed: GET /resources/{id}/calendar.ics?token=…, token shown to admins and rotatable', () => {
  it('serves the bookings (holds as tentative) and time off as iCalendar that node-ical reads', async () => {
    const r = await givenResource(a.admin, { name: 'Dr. Ada' });
    const s = await givenService(a.admin, [r.id], { name: 'Check-up', duration_minutes: 45 });
    const day = dayFromNow(3);
    const confirmed = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(day, '10:00'), { customer: { name: 'Grace Hopper' } }),
    });
    await a.agent('POST', `/bookings/${confirmed.body.id}/confirm`);
    const hold = await a.agent('POST', '/bookings', {
      body: serviceBooking(s.id, utc(day, '12:00'), {
        customer: { name: 'Alan Turing' },
        hold_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    });
    const cancelled = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '14:00')) });
    await a.agent('POST', `/bookings/${cancelled.body.id}/cancel`, { body: {} });
    const off = await a.admin('POST', `/resources/${r.id}/time-off`, {
      body: { start_at: utc(day, '15:00'), end_at: utc(day, '17:00'), reason: 'Training' },
    });

    const feed = await a.admin('GET', `/resources/${r.id}/calendar-token`);
    expect(feed.status).toBe(200);
    rememberSecret(
      'calendar feed token',
      new URL(feed.body.calendar_url).searchParams.get('token') as string,
    );
    expect(feed.body.calendar_url).toMatch(
      new RegExp(`/api/v1/resources/${r.id}/calendar\\.ics\\?token=cal_`),
    );
    // Shown again on request (calendar apps keep the URL), the same until rotated.
    expect((await a.admin('GET', `/resources/${r.id}/calendar-token`)).body).toEqual(feed.body);

    const res = await fetchFeed(feed.body.calendar_url);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/calendar/);
    const parsed = ical.sync.parseICS(res.text);
    const events = Object.values(parsed).filter((c) => c.type === 'VEVENT') as ical.VEvent[];
    const byUid = new Map(events.map((e) => [e.uid, e]));
    const first = byUid.get(`${confirmed.body.id}@switchboard`) as ical.VEvent;
    expect(first.start.toISOString()).toBe(utc(day, '10:00'));
    expect(first.end.toISOString()).toBe(utc(day, '10:45'));
    expect(first.summary).toBe('Check-up — Grace Hopper');
    expect(first.status).toBe('CONFIRMED');
    const held = byUid.get(`${hold.body.id}@switchboard`) as ical.VEvent;
    expect(held.status).toBe('TENTATIVE');
    expect(held.summary).toBe('Hold: Check-up — Alan Turing');
    expect(byUid.has(`${cancelled.body.id}@switchboard`)).toBe(false);
    const timeOff = byUid.get(`${off.body.id}@switchboard`) as ical.VEvent;
    expect(timeOff.summary).toBe('Time off: Training');
    expect(timeOff.start.toISOString()).toBe(utc(day, '15:00'));
  });

  it('rotation: the old URL stops working at once, the new one works; the token is never stored in the clear', async () => {
    const r = await givenResource(a.admin);
    const old = (await a.admin('GET', `/resources/${r.id}/calendar-token`)).body.calendar_url as string;
    const rotated = await a.admin('POST', `/resources/${r.id}/calendar-token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.calendar_url).not.toBe(old);
    expect((await fetchFeed(old)).status).toBe(404);
    expect((await fetchFeed(rotated.body.calendar_url)).status).toBe(200);
    const token = new URL(rotated.body.calendar_url).searchParams.get('token') as string;
    rememberSecret('calendar feed token', token);
    const { rows } = await pgPool().query(
      'select row_to_json(r)::text as row from resources r where id = $1',
      [r.id],
    );
    expect(rows[0].row).not.toContain(token);
    const audit = await a.admin('GET', '/audit-log?action=resource.calendar_token_rotated');
    expect(audit.body.data.map((e: { target: { id: string } }) => e.target.id)).toContain(r.id);
  });

  it('admins only; a wrong token, or a token of another resource or tenant, is 404', async () => {
    const r = await givenResource(a.admin);
    const other = await givenResource(b.admin);
    expectProblemCode(await a.agent('GET', `/resources/${r.id}/calendar-token`), 403, 'forbidden');
    expectProblemCode(await a.agent('POST', `/resources/${r.id}/calendar-token`), 403, 'forbidden');
    const url = new URL((await a.admin('GET', `/resources/${r.id}/calendar-token`)).body.calendar_url);
    const foreign = new URL(
      (await b.admin('GET', `/resources/${other.id}/calendar-token`)).body.calendar_url,
    );
    expect((await fetchFeed(`${url.origin}${url.pathname}?token=cal_wrong`)).status).toBe(404);
    expect((await fetchFeed(`${url.origin}${url.pathname}${foreign.search}`)).status).toBe(404);
    const missing = await api('GET', `/resources/${r.id}/calendar.ics`);
    expectProblemCode(missing, 422, 'validation_failed');
  });
});

describe('DST 2027 through the API: Europe (28 March, 31 October) and America (14 March, 7 November)', () => {
  const cases = [
    ['Europe/Madrid', '2027-03-27', '2027-03-28', '2027-03-29', 5],
    ['Europe/Madrid', '2027-10-30', '2027-10-31', '2027-11-01', 7],
    ['America/New_York', '2027-03-13', '2027-03-14', '2027-03-15', 5],
    ['America/New_York', '2027-11-06', '2027-11-07', '2027-11-08', 7],
  ] as const;
  it.each(cases)(
    '%s around %s: office hours keep their local time, the night of the change has its real length',
    async (zone, before, change, after, nightHours) => {
      const r = await givenResource(a.admin, {
        time_zone: zone,
        weekly_hours: everyDay([
          { start: '00:00', end: '06:00' },
          { start: '09:00', end: '12:00' },
        ]),
      });
      const s = await givenService(a.admin, [r.id], { duration_minutes: 60 });
      const res = await a.agent(
        'GET',
        `/slots?service_id=${s.id}&start=${before}&end=${after}&time_zone=${zone}`,
      );
      expect(Object.keys(res.body.days)).toEqual([before, change, after]);
      const local = (iso: string) =>
        new Intl.DateTimeFormat('en-GB', {
          timeZone: zone,
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(iso));
      for (const day of [before, change, after]) {
        const starts = res.body.days[day].map((x: { start: string }) => x.start);
        expect(new Set(starts).size).toBe(starts.length); // never a doubled slot
        const office = starts.filter((x: string) => ['09:00', '10:00', '11:00'].includes(local(x)));
        expect(office.map(local)).toEqual(['09:00', '10:00', '11:00']);
        const night = starts.length - office.length;
        expect(night).toBe(day === change ? nightHours : 6);
      }
      // The office hours moved by one hour in UTC across the change.
      const nine = (day: string) =>
        res.body.days[day].find((x: { start: string }) => local(x.start) === '09:00').start;
      const timeOfDay = (iso: string) => Date.parse(iso) % 86_400_000;
      expect(Math.abs(timeOfDay(nine(after)) - timeOfDay(nine(before)))).toBe(3_600_000);
      // A booking at 09:00 local on each side of the change is accepted at the slot's instant.
      for (const day of [before, after]) {
        const booked = await a.agent('POST', '/bookings', { body: serviceBooking(s.id, nine(day)) });
        expect(booked.status, booked.text).toBe(201);
        expect(local(booked.body.start_at)).toBe('09:00');
      }
    },
  );
});
