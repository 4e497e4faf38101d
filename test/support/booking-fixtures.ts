// Resources and services for the booking tests, made through the REST API (answers checked against
// their contract), and the times they are booked at.
import { expect } from 'vitest';
import type { Api } from './harness';

type Body = Record<string, unknown>;

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The same hours every day of the week. */
export function everyDay(ranges: { start: string; end: string }[]) {
  return Object.fromEntries(DAYS.map((d) => [d, ranges]));
}

/** A resource working `hours` (default 09:00–17:00 every day) in `time_zone` (default UTC). */
export async function givenResource(api: Api, overrides: Body = {}) {
  const res = await api('POST', '/resources', {
    body: {
      name: 'Dr. Ada',
      kind: 'staff',
      time_zone: 'UTC',
      weekly_hours: everyDay([{ start: '09:00', end: '17:00' }]),
      ...overrides,
    },
  });
  expect(res.status, `givenResource: ${res.text}`).toBe(201);
  return res.body as { id: string; time_zone: string } & Body;
}

/** A 60-minute service on `resourceIds`, with no notice and a 730-day window unless overridden. */
export async function givenService(api: Api, resourceIds: string[], overrides: Body = {}) {
  const res = await api('POST', '/services', {
    body: {
      name: 'Check-up',
      duration_minutes: 60,
      resource_ids: resourceIds,
      booking_window_days: 730,
      ...overrides,
    },
  });
  expect(res.status, `givenService: ${res.text}`).toBe(201);
  return res.body as { id: string; duration_minutes: number } & Body;
}

/** A POST /bookings body for a service. */
export function serviceBooking(serviceId: string, startAt: string, overrides: Body = {}) {
  return {
    service_id: serviceId,
    start_at: startAt,
    customer: { name: 'Grace Hopper', phone: '+34600111222' },
    ...overrides,
  };
}

/** A date (YYYY-MM-DD) `days` after today in UTC. */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** `YYYY-MM-DDTHH:MM:00.000Z` of a UTC date and time. */
export const utc = (date: string, hhmm: string) => `${date}T${hhmm}:00.000Z`;

/** Waits until `check` passes (polling every 100 ms), or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T>, ms = 8_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A booking as its events carry it: the REST answer without `manage_url` (the customer's credential
 * is never in an event; server/events/payloads.ts).
 */
export function asEventObject(booking: Body): Body {
  const { manage_url: _withheld, ...rest } = booking;
  return rest;
}
