// Local dates and wall-clock times to instants, through the Temporal API (temporal-polyfill), never
// offset arithmetic. A wall time that a DST change skips (02:30 on a spring-forward day) or repeats
// (02:30 on a fall-back day) is resolved the way RFC 5545 and Temporal's `compatible` option do: a
// skipped time moves forward by the gap, a repeated one takes its first occurrence.
import { Temporal } from 'temporal-polyfill';

export type PlainDateText = string; // YYYY-MM-DD

const IANA_NAME = /^(UTC|[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)+|[A-Za-z]+)$/;

/** The canonical IANA name of `zone` (case-normalised), or null when it is not a known IANA zone. */
export function canonicalTimeZone(zone: string): string | null {
  if (!IANA_NAME.test(zone)) return null; // offsets such as +01:00 are not IANA zones
  try {
    return new Temporal.ZonedDateTime(0n, zone).timeZoneId;
  } catch {
    return null;
  }
}

const instants = new Map<string, number>();

/**
 * The instant (epoch ms) of wall time `hhmm` ("HH:MM", or "24:00" for the end of the day) on local
 * date `date` in `zone`. Cached: weekly hours repeat the same few times over and over.
 */
export function wallTimeToInstant(date: PlainDateText, hhmm: string, zone: string): number {
  const key = `${zone}|${date}|${hhmm}`;
  let ms = instants.get(key);
  if (ms === undefined) {
    const day = Temporal.PlainDate.from(date);
    ms =
      hhmm === '24:00'
        ? day.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds // start of the next day
        : day.toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from(hhmm) }).epochMilliseconds;
    if (instants.size > 200_000) instants.clear();
    instants.set(key, ms);
  }
  return ms;
}

/** The first instant of local date `date` in `zone` (midnight, or the first valid time after a gap). */
export function startOfDay(date: PlainDateText, zone: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone }).epochMilliseconds;
}

/** The local date of an instant in `zone`. */
export function localDateOf(ms: number, zone: string): PlainDateText {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainDate().toString();
}

/** The local wall-clock time "HH:MM" of an instant in `zone`. */
export function localTimeOf(ms: number, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainTime().toString({
    smallestUnit: 'minute',
  });
}

const spans = new Map<string, PlainDateText[]>();

/** Every date from `first` to `last`, inclusive (cached: every resource of a search asks the same). */
export function datesBetween(first: PlainDateText, last: PlainDateText): PlainDateText[] {
  const key = `${first}|${last}`;
  const hit = spans.get(key);
  if (hit) return hit;
  const out: PlainDateText[] = [];
  const end = Temporal.PlainDate.from(last);
  for (
    let d = Temporal.PlainDate.from(first);
    Temporal.PlainDate.compare(d, end) <= 0;
    d = d.add({ days: 1 })
  ) {
    out.push(d.toString());
  }
  if (spans.size > 10_000) spans.clear();
  spans.set(key, out);
  return out;
}

export function addDays(date: PlainDateText, days: number): PlainDateText {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** Days from `first` to `last` (positive when last is later). */
export function daysBetween(first: PlainDateText, last: PlainDateText): number {
  return Temporal.PlainDate.from(first).until(Temporal.PlainDate.from(last), { largestUnit: 'days' }).days;
}

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const weekdays = new Map<PlainDateText, Weekday>();

/** mon…sun of a local date. */
export function weekdayOf(date: PlainDateText): Weekday {
  let day = weekdays.get(date);
  if (!day) {
    day = WEEKDAYS[Temporal.PlainDate.from(date).dayOfWeek - 1];
    if (weekdays.size > 100_000) weekdays.clear();
    weekdays.set(date, day);
  }
  return day;
}
