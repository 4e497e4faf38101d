/**
 * Local dates and wall-clock times of an IANA time zone in the browser, through the Temporal API
 * (`temporal-polyfill`, the library the server's availability engine uses), never offset arithmetic:
 * the bookings calendar draws a resource's day in the resource's zone whatever the viewer's own zone,
 * and time off is typed in it. A wall time a DST change skips moves forward by the gap, a repeated one
 * takes its first occurrence (Temporal's `compatible`, as the server does).
 */
import { Temporal } from 'temporal-polyfill';

export type PlainDateText = string; // YYYY-MM-DD

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const zoned = (ms: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);

/** Today's date in `zone`. */
export function todayIn(zone: string, now = Date.now()): PlainDateText {
  return zoned(now, zone).toPlainDate().toString();
}

/** The first instant (epoch ms) of local date `date` in `zone`. */
export function startOfDay(date: PlainDateText, zone: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone }).epochMilliseconds;
}

/** The local date of an instant in `zone`. */
export function localDateOf(ms: number, zone: string): PlainDateText {
  return zoned(ms, zone).toPlainDate().toString();
}

/** Minutes since local midnight of an instant in `zone` (its wall clock: 09:30 → 570). */
export function wallMinutes(ms: number, zone: string): number {
  const z = zoned(ms, zone);
  return z.hour * 60 + z.minute;
}

export function addDays(date: PlainDateText, days: number): PlainDateText {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** The Monday of the week of `date`. */
export function mondayOf(date: PlainDateText): PlainDateText {
  const d = Temporal.PlainDate.from(date);
  return d.subtract({ days: d.dayOfWeek - 1 }).toString();
}

export function weekdayOf(date: PlainDateText): Weekday {
  return WEEKDAYS[Temporal.PlainDate.from(date).dayOfWeek - 1];
}

/** Whether `value` is a real date YYYY-MM-DD. */
export function isPlainDate(value: string | null | undefined): value is PlainDateText {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' }).toString() === value;
  } catch {
    return false;
  }
}

export { formatClock, formatDateTime } from '@/server/client-safe/time-format';

/** "Tue 2 Mar 2027": the date of an instant in `zone`. */
export function formatDay(ms: number | string, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(new Date(ms));
}

/** "Tue 2 Mar" (or with the year) of a local date, independent of any zone. */
export function formatDate(date: PlainDateText, options: { year?: boolean; weekday?: boolean } = {}) {
  const d = Temporal.PlainDate.from(date);
  // Noon UTC of that date, formatted in UTC: the date itself, whatever the viewer's zone.
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    ...(options.weekday === false ? {} : { weekday: 'short' }),
    day: 'numeric',
    month: 'short',
    ...(options.year ? { year: 'numeric' } : {}),
  }).format(new Date(Date.UTC(d.year, d.month - 1, d.day, 12)));
}

/** An instant as the value of an `<input type="datetime-local">` showing its wall time in `zone`. */
export function toLocalInput(ms: number | string, zone: string): string {
  return zoned(typeof ms === 'string' ? Date.parse(ms) : ms, zone)
    .toPlainDateTime()
    .toString({ smallestUnit: 'minute' });
}

/**
 * The instant (RFC 3339 UTC) of an `<input type="datetime-local">` value read as a wall time in
 * `zone`, or null when it is not one.
 */
export function fromLocalInput(value: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  try {
    return Temporal.PlainDateTime.from(value, { overflow: 'reject' })
      .toZonedDateTime(zone)
      .toInstant()
      .toString();
  } catch {
    return null;
  }
}

/** The viewer's own zone (the default for a new resource). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Every IANA zone this browser knows, for a picker (`Intl.supportedValuesOf`), with UTC, which some
 * engines leave out, and `current` (a stored zone under an older name) so it stays selectable.
 */
export function timeZoneOptions(current?: string): string[] {
  const zones = new Set<string>(['UTC']);
  try {
    for (const zone of Intl.supportedValuesOf('timeZone')) zones.add(zone);
  } catch {
    // An engine without supportedValuesOf: the picker still offers UTC and the current zone.
  }
  if (current) zones.add(current);
  return [...zones].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}
