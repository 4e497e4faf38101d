// The availability engine: pure functions from a service, its resources, their blocked intervals and
// the time now to free slots. No database and no clock inside, so every rule is unit-tested (and
// property-tested) on its own; callers read the data in two queries (slots.ts, place-booking.ts).
//
// Rules (the OpenAPI description of GET /slots and POST /bookings says the same):
// - weekly hours are expanded per local date of the resource's zone (time-zones.ts);
// - a slot starts on the grid of its working interval (interval start + k × slot interval, in elapsed
//   minutes) and ends inside that interval: a DST day neither loses nor doubles a slot, and a day that
//   repeats an hour has that hour's slots once per instant;
// - a resource is free for [start, end) when it lies inside its working hours, start ≥ now + min notice,
//   start < now + booking window, and [start − buffer_before, end + buffer_after) overlaps none of its
//   blocks (time off, and the blocked interval of each of its pending/confirmed bookings). Intervals are
//   half-open: 10:00–11:00 and 11:00–12:00 do not clash.
import {
  datesBetween,
  type PlainDateText,
  WEEKDAYS,
  type Weekday,
  wallTimeToInstant,
  weekdayOf,
} from './time-zones';

export interface TimeRange {
  start: string; // HH:MM
  end: string; // HH:MM or 24:00
}
export type WeeklyHours = Record<Weekday, TimeRange[]>;

export interface EngineService {
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minNoticeMinutes: number;
  bookingWindowDays: number;
  /** null: the duration. */
  slotIntervalMinutes: number | null;
}

export interface EngineResource {
  id: string;
  timeZone: string;
  weeklyHours: WeeklyHours;
}

/** A half-open interval [from, until) in epoch milliseconds. */
export interface Interval {
  from: number;
  until: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Minutes of "HH:MM" (24:00 → 1440). */
export function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/**
 * Problems with weekly hours: each interval "HH:MM"–"HH:MM" (end may be 24:00) with start < end, and
 * the intervals of one day not overlapping (touching is fine). Returns [path, message] pairs.
 */
export function weeklyHoursProblems(hours: WeeklyHours): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const day of WEEKDAYS) {
    const ranges = (hours[day] ?? []).map((r, i) => ({
      ...r,
      i,
      s: minutesOf(r.start),
      e: minutesOf(r.end),
    }));
    for (const r of ranges) {
      if (r.e <= r.s)
        problems.push({ path: `weekly_hours.${day}[${r.i}].end`, message: 'Must be after start' });
    }
    const sorted = ranges.filter((r) => r.e > r.s).sort((a, b) => a.s - b.s);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k].s < sorted[k - 1].e) {
        problems.push({
          path: `weekly_hours.${day}[${sorted[k].i}]`,
          message: `Overlaps ${sorted[k - 1].start}–${sorted[k - 1].end} of the same day`,
        });
      }
    }
  }
  return problems;
}

/**
 * The working intervals (instants) of a resource on the local dates first…last of its own zone, in
 * order. Intervals of a day whose wall times a DST change squeezes to nothing are dropped.
 */
export function workingIntervals(
  resource: EngineResource,
  first: PlainDateText,
  last: PlainDateText,
): Interval[] {
  const out: Interval[] = [];
  for (const date of datesBetween(first, last)) {
    for (const range of resource.weeklyHours[weekdayOf(date)] ?? []) {
      const from = wallTimeToInstant(date, range.start, resource.timeZone);
      const until = wallTimeToInstant(date, range.end, resource.timeZone);
      if (until > from) out.push({ from, until });
    }
  }
  return out.sort((a, b) => a.from - b.from);
}

/** Sorted, merged (disjoint, non-touching) copy of `intervals`. */
export function mergeIntervals(intervals: Interval[], mergeTouching = true): Interval[] {
  const sorted = intervals.filter((i) => i.until > i.from).sort((a, b) => a.from - b.from);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && (mergeTouching ? i.from <= last.until : i.from < last.until)) {
      last.until = Math.max(last.until, i.until);
    } else out.push({ ...i });
  }
  return out;
}

/** Whether [from, until) overlaps any of `merged` (sorted, disjoint): a binary search. */
export function overlapsAny(merged: Interval[], from: number, until: number): boolean {
  let lo = 0;
  let hi = merged.length;
  // First block that ends after `from`.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (merged[mid].until <= from) lo = mid + 1;
    else hi = mid;
  }
  return lo < merged.length && merged[lo].from < until;
}

/** Whether [from, until) lies inside one of `merged` (sorted, disjoint). */
export function insideAny(merged: Interval[], from: number, until: number): boolean {
  let lo = 0;
  let hi = merged.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (merged[mid].until < until) lo = mid + 1;
    else hi = mid;
  }
  return lo < merged.length && merged[lo].from <= from && merged[lo].until >= until;
}

export function stepMinutes(service: EngineService): number {
  return service.slotIntervalMinutes ?? service.durationMinutes;
}

/** The earliest and (exclusive) latest start that notice and window allow at `now`. */
export function bookableStarts(service: EngineService, now: number): Interval {
  return { from: now + service.minNoticeMinutes * MINUTE, until: now + service.bookingWindowDays * DAY };
}

export interface FreeCheck {
  resource: EngineResource;
  /** The resource's blocks (time off, other bookings' blocked intervals), merged or not. */
  blocks: Interval[];
  service: EngineService;
  start: number;
  now: number;
}

export type NotFree = 'outside_hours' | 'notice' | 'window' | 'blocked';

/**
 * Why a resource is not free for a booking of `service` at `start`, or null when it is: the rule of
 * POST /bookings and reschedule (the start need not be on the slot grid).
 */
export function whyNotFree(check: FreeCheck): NotFree | null {
  const { service, start, now } = check;
  const end = start + service.durationMinutes * MINUTE;
  const allowed = bookableStarts(service, now);
  if (start < allowed.from) return 'notice';
  if (start >= allowed.until) return 'window';
  // The local date of an instant in any zone is its UTC date ± 1 (offsets lie within ±14 h).
  const hours = mergeIntervals(workingIntervals(check.resource, utcDate(start - DAY), utcDate(end + DAY)));
  if (!insideAny(hours, start, end)) return 'outside_hours';
  const blocks = mergeIntervals(check.blocks, false);
  const blockedFrom = start - service.bufferBeforeMinutes * MINUTE;
  const blockedUntil = end + service.bufferAfterMinutes * MINUTE;
  if (overlapsAny(blocks, blockedFrom, blockedUntil)) return 'blocked';
  return null;
}

const utcDate = (ms: number): PlainDateText => new Date(ms).toISOString().slice(0, 10);

export interface SlotSearch {
  service: EngineService;
  resources: { resource: EngineResource; blocks: Interval[] }[];
  /** The instants the requested local dates span: [first day's start, the day after the last's start). */
  range: Interval;
  now: number;
}

export interface Slot {
  start: number;
  end: number;
  resourceIds: string[];
}

/**
 * Every start on a working interval's grid, inside `range`, where at least one resource is free, with
 * the resources free then (in the order given). Sorted by start.
 */
export function findSlots(search: SlotSearch): Slot[] {
  const { service, range, now } = search;
  const duration = service.durationMinutes * MINUTE;
  const step = stepMinutes(service) * MINUTE;
  const before = service.bufferBeforeMinutes * MINUTE;
  const after = service.bufferAfterMinutes * MINUTE;
  const allowed = bookableStarts(service, now);
  const lowest = Math.max(range.from, allowed.from);
  const highest = Math.min(range.until, allowed.until); // exclusive
  const byStart = new Map<number, Slot>();
  if (highest <= lowest) return [];
  // UTC dates one day around the range cover every zone's local dates that can hold a slot in it.
  const first = utcDate(range.from - DAY);
  const last = utcDate(range.until + DAY);
  for (const { resource, blocks } of search.resources) {
    const merged = mergeIntervals(blocks, false);
    for (const interval of workingIntervals(resource, first, last)) {
      if (interval.until <= lowest || interval.from >= highest) continue;
      // The first grid point at or after `lowest`.
      const skip = interval.from >= lowest ? 0 : Math.ceil((lowest - interval.from) / step);
      for (let start = interval.from + skip * step; start + duration <= interval.until; start += step) {
        if (start >= highest) break;
        if (overlapsAny(merged, start - before, start + duration + after)) continue;
        const slot = byStart.get(start);
        // Resources are visited one after the other in the caller's order, so each slot lists them in
        // that order, and this resource, if already listed at this start, is the last one listed: a
        // constant-time check, not a scan of the list (100 resources × 8,928 starts of a month).
        if (slot) {
          if (slot.resourceIds[slot.resourceIds.length - 1] !== resource.id)
            slot.resourceIds.push(resource.id);
        } else byStart.set(start, { start, end: start + duration, resourceIds: [resource.id] });
      }
    }
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/**
 * Groups slots by the local date of their start in the caller's zone; every date of `days` is a key
 * (an empty list when nothing is free). `dayStarts[i]` is the first instant of `days[i]`.
 */
export function groupByDay<T extends { start: number }>(
  slots: T[],
  days: PlainDateText[],
  dayStarts: number[],
): Record<PlainDateText, T[]> {
  const out: Record<PlainDateText, T[]> = Object.fromEntries(days.map((d) => [d, [] as T[]]));
  let d = 0;
  for (const slot of slots) {
    while (d + 1 < dayStarts.length && dayStarts[d + 1] <= slot.start) d++;
    if (slot.start >= dayStarts[0]) out[days[d]].push(slot);
  }
  return out;
}
