// The calendar feed's SEQUENCE (RFC 5545 §3.8.7.4): a booking's event starts at 0 and rises each time
// its start or end moves, whichever way it moved (reschedule, or PATCH of its times), and only then.
// Outlook keeps its copy of a subscribed event unless the sequence rises. Read back with node-ical.
import ical from 'node-ical';
import { describe, expect, it } from 'vitest';
import { pgPool } from '@/server/db/pool';
import { dayFromNow, givenResource, givenService, serviceBooking, utc } from '../support/booking-fixtures';
import { apiSuite } from '../support/harness';
import { rememberSecret } from '../support/log-scan';

const suite = apiSuite();
const { tenant: a } = suite;

/** The feed's VEVENT of a booking, as a calendar app reads it (a GET of the URL, no headers). */
async function feedEvent(calendarUrl: string, bookingId: string) {
  const url = new URL(calendarUrl);
  const res = await fetch(`${suite.url}${url.pathname}${url.search}`);
  expect(res.status).toBe(200);
  const parsed = ical.sync.parseICS(await res.text());
  const event = parsed[`${bookingId}@switchboard`] as ical.VEvent | undefined;
  if (!event) throw new Error(`booking ${bookingId} is not in the feed`);
  return { start: event.start.toISOString(), end: event.end.toISOString(), sequence: Number(event.sequence) };
}

describe('calendar feed SEQUENCE', () => {
  it('starts at 0 and rises with every move of the start or end, not with other changes', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id], { duration_minutes: 30 });
    const day = dayFromNow(5);
    const created = await a.admin('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '10:00')) });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const calendarUrl = (await a.admin('GET', `/resources/${r.id}/calendar-token`)).body.calendar_url;
    rememberSecret('calendar feed token', new URL(calendarUrl).searchParams.get('token') as string);

    expect(await feedEvent(calendarUrl, id)).toEqual({
      start: utc(day, '10:00'),
      end: utc(day, '10:30'),
      sequence: 0,
    });

    // Confirming changes the status, not the times.
    expect((await a.admin('POST', `/bookings/${id}/confirm`)).status).toBe(200);
    expect((await feedEvent(calendarUrl, id)).sequence).toBe(0);

    const moved = await a.admin('POST', `/bookings/${id}/reschedule`, {
      body: { start_at: utc(day, '14:00') },
    });
    expect(moved.status).toBe(200);
    expect(await feedEvent(calendarUrl, id)).toEqual({
      start: utc(day, '14:00'),
      end: utc(day, '14:30'),
      sequence: 1,
    });

    // A PATCH of the start moves it the same way; one of the notes alone does not raise it.
    expect(
      (await a.admin('PATCH', `/bookings/${id}`, { body: { start_at: utc(day, '11:00') } })).status,
    ).toBe(200);
    expect((await a.admin('PATCH', `/bookings/${id}`, { body: { notes: 'Bring the X-rays' } })).status).toBe(
      200,
    );
    // Moving back to an earlier time still raises it: it never goes backwards.
    expect(await feedEvent(calendarUrl, id)).toEqual({
      start: utc(day, '11:00'),
      end: utc(day, '11:30'),
      sequence: 2,
    });

    // A reschedule to the time it already has moves nothing.
    expect(
      (await a.admin('POST', `/bookings/${id}/reschedule`, { body: { start_at: utc(day, '11:00') } })).status,
    ).toBe(200);
    expect((await feedEvent(calendarUrl, id)).sequence).toBe(2);
  });

  it('a free-form booking counts its moves too (PATCH of start_at or end_at)', async () => {
    const start = new Date(Date.now() + 3 * 86_400_000);
    const created = await a.admin('POST', '/bookings', {
      body: {
        customer: { name: 'Ada Lovelace' },
        service: 'Walk-in',
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + 3_600_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const sequence = async () =>
      (await pgPool().query('select sequence from bookings where id = $1', [id])).rows[0].sequence;
    expect(await sequence()).toBe(0);
    const later = new Date(start.getTime() + 7_200_000).toISOString();
    expect((await a.admin('PATCH', `/bookings/${id}`, { body: { end_at: later } })).status).toBe(200);
    expect(await sequence()).toBe(1);
    expect((await a.admin('PATCH', `/bookings/${id}`, { body: { notes: 'Window seat' } })).status).toBe(200);
    expect(await sequence()).toBe(1);
  });
});
