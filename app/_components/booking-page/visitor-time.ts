/**
 * Times on the booking pages, in the visitor's own zone, with nothing but Intl (no date library in
 * this bundle). The server answers instants (UTC) grouped by the visitor's local dates (it is asked
 * with their zone), so a day across a change of clock is whatever the server's zone rules say it is;
 * this file only names dates and formats instants in that zone.
 */

/** The browser's zone (UTC when it will not say). */
export function detectedZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every IANA zone this browser knows, for the zone picker (the given ones first if missing). */
export function knownZones(...must: string[]): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return [...new Set([...must, ...zones])].sort();
}

/** Today's date (YYYY-MM-DD) in `zone`. */
export function todayIn(zone: string, now = Date.now()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** A calendar date `days` later (dates, not instants: no clock is involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** "Thu 3 Dec" of a local date. */
export function dayLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(Date.UTC(y, m - 1, d));
}

/** "10:30" of an instant in `zone` (24-hour clock). */
export function timeLabel(instant: string, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));
}

/** "Thursday 3 December 2026, 10:30" of an instant in `zone`. */
export function dateTimeLabel(instant: string, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));
}

/** "GMT+1" of `zone` at an instant: says which clock the times are on. */
export function offsetLabel(zone: string, at = Date.now()): string {
  const part = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? zone;
}
