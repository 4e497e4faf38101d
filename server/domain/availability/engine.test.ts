import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type EngineResource,
  type EngineService,
  findSlots,
  groupByDay,
  type Interval,
  insideAny,
  mergeIntervals,
  overlapsAny,
  type WeeklyHours,
  weeklyHoursProblems,
  whyNotFree,
  workingIntervals,
} from './engine';
import { canonicalTimeZone, datesBetween, localDateOf, localTimeOf, startOfDay } from './time-zones';

const MIN = 60_000;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const week = (
  ranges: { start: string; end: string }[],
  days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
) =>
  Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, days.includes(d) ? ranges : []]),
  ) as WeeklyHours;
const service = (patch: Partial<EngineService> = {}): EngineService => ({
  durationMinutes: 60,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minNoticeMinutes: 0,
  bookingWindowDays: 3650,
  slotIntervalMinutes: null,
  ...patch,
});
const resource = (timeZone: string, hours: WeeklyHours, id = 'res_a'): EngineResource => ({
  id,
  timeZone,
  weeklyHours: hours,
});
const LONG_AGO = at('2020-01-01T00:00:00Z');

/** Slots of one local day in `zone` (the query zone = the resource zone). */
function daySlots(zone: string, date: string, hours: WeeklyHours, svc = service(), blocks: Interval[] = []) {
  const range = { from: startOfDay(date, zone), until: startOfDay(nextDate(date), zone) };
  return findSlots({
    service: svc,
    resources: [{ resource: resource(zone, hours), blocks }],
    range,
    now: LONG_AGO,
  });
}
const nextDate = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('time zones', () => {
  it('accepts IANA names (canonical case) and refuses the rest', () => {
    expect(canonicalTimeZone('Europe/Madrid')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('europe/madrid')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    for (const bad of ['Mars/Olympus', '+01:00', '', 'Europe/', 'CET ', '../etc'])
      expect(canonicalTimeZone(bad)).toBeNull();
  });
});

describe('weekly hours', () => {
  it('refuses an interval that ends before it starts, and overlaps within a day', () => {
    expect(
      weeklyHoursProblems(
        week([
          { start: '09:00', end: '12:00' },
          { start: '12:00', end: '24:00' },
        ]),
      ),
    ).toEqual([]);
    expect(weeklyHoursProblems(week([{ start: '10:00', end: '09:00' }], ['mon']))).toEqual([
      { path: 'weekly_hours.mon[0].end', message: 'Must be after start' },
    ]);
    const overlap = weeklyHoursProblems(
      week(
        [
          { start: '09:00', end: '12:00' },
          { start: '11:59', end: '13:00' },
        ],
        ['tue'],
      ),
    );
    expect(overlap.map((p) => p.path)).toEqual(['weekly_hours.tue[1]']);
  });
});

describe('slots at 09:00 Madrid follow the zone through the year', () => {
  const hours = week([{ start: '09:00', end: '10:00' }]);
  it('08:00Z in winter, 07:00Z in summer', () => {
    expect(daySlots('Europe/Madrid', '2027-01-12', hours).map((s) => iso(s.start))).toEqual([
      '2027-01-12T08:00:00.000Z',
    ]);
    expect(daySlots('Europe/Madrid', '2027-07-12', hours).map((s) => iso(s.start))).toEqual([
      '2027-07-12T07:00:00.000Z',
    ]);
  });
});

describe('DST 2027: Europe (28 March, 31 October) and America (14 March, 7 November)', () => {
  const night = week([{ start: '00:00', end: '06:00' }]);
  const cases = [
    // [zone, date, hours of elapsed time in 00:00–06:00 local]
    ['Europe/Madrid', '2027-03-28', 5],
    ['Europe/Madrid', '2027-10-31', 7],
    ['Europe/London', '2027-03-28', 5],
    ['Europe/London', '2027-10-31', 7],
    ['America/New_York', '2027-03-14', 5],
    ['America/New_York', '2027-11-07', 7],
    ['America/Los_Angeles', '2027-03-14', 5],
    ['America/Los_Angeles', '2027-11-07', 7],
  ] as const;
  it.each(cases)(
    '%s on %s: one hourly slot per elapsed hour, none missing, none doubled',
    (zone, date, hours) => {
      const slots = daySlots(zone, date, night);
      expect(slots).toHaveLength(hours);
      const starts = slots.map((s) => s.start);
      expect(new Set(starts).size).toBe(starts.length);
      for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBe(60 * MIN);
      // The first starts at local midnight and the last ends at 06:00 local: no slot ends past its interval.
      expect(localTimeOf(starts[0], zone)).toBe('00:00');
      expect(localTimeOf(slots[slots.length - 1].end, zone)).toBe('06:00');
      for (const s of slots) expect(localDateOf(s.start, zone)).toBe(date);
    },
  );

  it('a working day that starts inside the skipped hour starts when the clocks resume', () => {
    // 02:30 does not exist in Madrid on 28 March 2027: the interval starts at 03:30 CEST (the gap added).
    const slots = daySlots('Europe/Madrid', '2027-03-28', week([{ start: '02:30', end: '05:30' }]));
    expect(slots.map((s) => localTimeOf(s.start, 'Europe/Madrid'))).toEqual(['03:30', '04:30']);
  });

  it('a day hour in the repeated hour is its first occurrence', () => {
    const slots = daySlots('Europe/Madrid', '2027-10-31', week([{ start: '02:30', end: '03:30' }]));
    // 02:30 CEST (00:30Z) to 03:30 CET (02:30Z): two hours elapsed, two hourly slots.
    expect(slots.map((s) => iso(s.start))).toEqual(['2027-10-31T00:30:00.000Z', '2027-10-31T01:30:00.000Z']);
  });

  it('office hours keep their local times across the change', () => {
    const hours = week([{ start: '09:00', end: '12:00' }]);
    for (const [zone, before, after] of [
      ['Europe/Madrid', '2027-03-27', '2027-03-29'],
      ['America/New_York', '2027-03-13', '2027-03-15'],
      ['Europe/Madrid', '2027-10-30', '2027-11-01'],
      ['America/New_York', '2027-11-06', '2027-11-08'],
    ]) {
      for (const date of [before, after]) {
        expect(daySlots(zone, date, hours).map((s) => localTimeOf(s.start, zone))).toEqual([
          '09:00',
          '10:00',
          '11:00',
        ]);
      }
      const utcBefore = daySlots(zone, before, hours)[0].start % 86_400_000;
      const utcAfter = daySlots(zone, after, hours)[0].start % 86_400_000;
      expect(Math.abs(utcBefore - utcAfter)).toBe(60 * MIN);
    }
  });

  it('24:00 ends the day at the next local midnight', () => {
    const slots = daySlots('America/New_York', '2027-11-06', week([{ start: '22:00', end: '24:00' }]));
    expect(slots.map((s) => localTimeOf(s.end, 'America/New_York'))).toEqual(['23:00', '00:00']);
  });
});

describe('grid, buffers, notice, window', () => {
  const nine = week([{ start: '09:00', end: '12:00' }]);
  it('steps by slot_interval_minutes from the start of each interval', () => {
    const slots = daySlots(
      'UTC',
      '2027-05-03',
      nine,
      service({ durationMinutes: 45, slotIntervalMinutes: 30 }),
    );
    expect(slots.map((s) => iso(s.start).slice(11, 16))).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
    ]);
    expect(slots.every((s) => s.end - s.start === 45 * MIN)).toBe(true);
  });

  it('half-open intervals: a booking 10:00–11:00 leaves 09:00 and 11:00 free', () => {
    const blocks = [{ from: at('2027-05-03T10:00:00Z'), until: at('2027-05-03T11:00:00Z') }];
    const slots = daySlots('UTC', '2027-05-03', nine, service(), blocks);
    expect(slots.map((s) => iso(s.start).slice(11, 16))).toEqual(['09:00', '11:00']);
  });

  it("buffers of the new booking reach into another's blocked interval", () => {
    const blocks = [{ from: at('2027-05-03T10:00:00Z'), until: at('2027-05-03T11:00:00Z') }];
    const slots = daySlots('UTC', '2027-05-03', nine, service({ bufferAfterMinutes: 1 }), blocks);
    expect(slots.map((s) => iso(s.start).slice(11, 16))).toEqual(['11:00']);
    const before = daySlots('UTC', '2027-05-03', nine, service({ bufferBeforeMinutes: 1 }), blocks);
    expect(before.map((s) => iso(s.start).slice(11, 16))).toEqual(['09:00']);
  });

  it('buffers may lie outside working hours', () => {
    const slots = daySlots(
      'UTC',
      '2027-05-03',
      nine,
      service({ bufferBeforeMinutes: 30, bufferAfterMinutes: 30 }),
    );
    expect(slots.map((s) => iso(s.start).slice(11, 16))).toEqual(['09:00', '10:00', '11:00']);
  });

  it('min notice and booking window cut the range', () => {
    const now = at('2027-05-03T09:10:00Z');
    const range = { from: at('2027-05-03T00:00:00Z'), until: at('2027-05-06T00:00:00Z') };
    const r = { resource: resource('UTC', nine), blocks: [] };
    const slots = findSlots({
      service: service({ minNoticeMinutes: 50, bookingWindowDays: 1 }),
      resources: [r],
      range,
      now,
    });
    expect(slots.map((s) => iso(s.start))).toEqual([
      '2027-05-03T10:00:00.000Z',
      '2027-05-03T11:00:00.000Z',
      '2027-05-04T09:00:00.000Z',
    ]);
  });

  it('lists every free resource of a start, and a start when only one is free', () => {
    const a = {
      resource: resource('UTC', nine, 'res_a'),
      blocks: [{ from: at('2027-05-03T09:00:00Z'), until: at('2027-05-03T10:00:00Z') }],
    };
    const b = { resource: resource('UTC', nine, 'res_b'), blocks: [] };
    const range = { from: at('2027-05-03T00:00:00Z'), until: at('2027-05-04T00:00:00Z') };
    const slots = findSlots({ service: service(), resources: [a, b], range, now: LONG_AGO });
    expect(slots.map((s) => [iso(s.start).slice(11, 16), s.resourceIds])).toEqual([
      ['09:00', ['res_b']],
      ['10:00', ['res_a', 'res_b']],
      ['11:00', ['res_a', 'res_b']],
    ]);
  });
});

describe('whyNotFree (POST /bookings and reschedule)', () => {
  const nine = resource(
    'Europe/Madrid',
    week([
      { start: '09:00', end: '13:00' },
      { start: '13:00', end: '14:00' },
    ]),
  );
  const now = at('2027-01-01T00:00:00Z');
  const check = (start: string, blocks: Interval[] = [], svc = service()) =>
    whyNotFree({ resource: nine, blocks, service: svc, start: at(start), now });
  it('inside hours (touching intervals count as one), outside, notice, window, blocked', () => {
    expect(check('2027-01-12T08:00:00Z')).toBeNull(); // 09:00 Madrid
    expect(check('2027-01-12T11:30:00Z')).toBeNull(); // 12:30–13:30 across two touching intervals
    expect(check('2027-01-12T12:30:00Z')).toBe('outside_hours'); // 13:30–14:30
    expect(check('2027-01-12T07:59:00Z')).toBe('outside_hours');
    expect(check('2027-01-12T08:00:00Z', [], service({ minNoticeMinutes: 16 * 24 * 60 }))).toBe('notice');
    expect(check('2027-01-12T08:00:00Z', [], service({ bookingWindowDays: 11 }))).toBe('window');
    const booked = [{ from: at('2027-01-12T09:00:00Z'), until: at('2027-01-12T10:00:00Z') }];
    expect(check('2027-01-12T08:00:00Z', booked)).toBeNull();
    expect(check('2027-01-12T08:00:00Z', booked, service({ bufferAfterMinutes: 5 }))).toBe('blocked');
    expect(check('2027-01-12T08:30:00Z', booked)).toBe('blocked');
  });
});

describe('interval helpers', () => {
  it('merge, overlap and containment agree with a brute force', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 40 })), {
          maxLength: 20,
        }),
        fc.integer({ min: 0, max: 240 }),
        fc.integer({ min: 1, max: 40 }),
        (raw, from, length) => {
          const intervals = raw.map(([f, l]) => ({ from: f, until: f + l }));
          const until = from + length;
          const merged = mergeIntervals(intervals, false);
          const brute = intervals.some((i) => i.from < until && from < i.until);
          expect(overlapsAny(merged, from, until)).toBe(brute);
          const touching = mergeIntervals(intervals, true);
          const covered = (t: number) => intervals.some((i) => i.from <= t && t < i.until);
          let inside = true;
          for (let t = from; t < until; t++) inside &&= covered(t);
          expect(insideAny(touching, from, until)).toBe(inside);
        },
      ),
    );
  });
});

describe('properties of findSlots', () => {
  const zones = [
    'UTC',
    'Europe/Madrid',
    'Europe/London',
    'America/New_York',
    'America/Los_Angeles',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'America/Santiago',
  ];
  const time = fc
    .integer({ min: 0, max: 47 })
    .map((h) => `${String(Math.floor(h / 2)).padStart(2, '0')}:${h % 2 ? '30' : '00'}`);
  const ranges = fc.array(fc.tuple(time, fc.integer({ min: 1, max: 12 })), { maxLength: 3 }).map((list) => {
    // Non-overlapping ranges of one day, in order.
    const sorted = list
      .map(([start, halfHours]) => {
        const s = Number(start.slice(0, 2)) * 60 + Number(start.slice(3));
        const e = Math.min(24 * 60, s + halfHours * 30);
        return { s, e };
      })
      .sort((a, b) => a.s - b.s);
    const out: { start: string; end: string }[] = [];
    let last = -1;
    for (const { s, e } of sorted) {
      if (s < last || e <= s) continue;
      const hhmm = (m: number) =>
        `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      out.push({ start: hhmm(s), end: hhmm(e) });
      last = e;
    }
    return out;
  });
  const dates = fc
    .integer({ min: 0, max: 400 })
    .map((d) => new Date(Date.parse('2027-01-01T00:00:00Z') + d * 86_400_000).toISOString().slice(0, 10));

  it('every slot lies inside a working interval on its grid, is free, unique and sorted; nothing free is missed', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        ranges,
        dates,
        fc.integer({ min: 1, max: 8 }).map((n) => n * 15),
        fc.option(
          fc.integer({ min: 1, max: 6 }).map((n) => n * 15),
          { nil: null },
        ),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 * 24 * 4 }), fc.integer({ min: 1, max: 16 })), {
          maxLength: 6,
        }),
        (zone, dayRanges, date, duration, interval, rawBlocks) => {
          const hours = week(dayRanges);
          const svc = service({
            durationMinutes: duration,
            slotIntervalMinutes: interval,
            bufferAfterMinutes: 15,
          });
          const res = resource(zone, hours);
          const base = startOfDay(date, zone);
          const blocks = rawBlocks.map(([q, l]) => ({
            from: base + q * 15 * MIN,
            until: base + (q + l) * 15 * MIN,
          }));
          const range = { from: base, until: startOfDay(nextDate(nextDate(date)), zone) };
          const slots = findSlots({
            service: svc,
            resources: [{ resource: res, blocks }],
            range,
            now: LONG_AGO,
          });
          const step = (interval ?? duration) * MIN;
          const all = workingIntervals(
            res,
            new Date(base - 2 * 86_400_000).toISOString().slice(0, 10),
            nextDate(nextDate(nextDate(date))),
          );
          for (let i = 0; i < slots.length; i++) {
            const s = slots[i];
            if (i > 0) expect(s.start).toBeGreaterThan(slots[i - 1].start);
            expect(s.start).toBeGreaterThanOrEqual(range.from);
            expect(s.start).toBeLessThan(range.until);
            expect(s.end - s.start).toBe(duration * MIN);
            const home = all.find(
              (w) => w.from <= s.start && s.end <= w.until && (s.start - w.from) % step === 0,
            );
            expect(home, `${iso(s.start)} is on a grid inside an interval`).toBeDefined();
            expect(overlapsAny(mergeIntervals(blocks, false), s.start, s.end + 15 * MIN)).toBe(false);
          }
          // Completeness: every grid start in range that is free appears.
          const starts = new Set(slots.map((s) => s.start));
          for (const w of all) {
            for (let t = w.from; t + duration * MIN <= w.until; t += step) {
              if (t < range.from || t >= range.until) continue;
              if (overlapsAny(mergeIntervals(blocks, false), t, t + duration * MIN + 15 * MIN)) continue;
              expect(starts.has(t), `${iso(t)} (${zone}) is free and on the grid`).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('groupByDay puts each slot under the local date of its start, every day present', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), dates, (zone, date) => {
        const days = datesBetween(date, nextDate(nextDate(date)));
        const starts = days.map((d) => startOfDay(d, zone));
        // Hours after local midnight that every day has: a spring-forward day has only 23 hours, so
        // 23 h after its midnight is already the next date (outside the days asked for).
        const slots = days.flatMap((d) =>
          [0, 5, 13, 22].map((h) => ({ start: startOfDay(d, zone) + h * 3_600_000 })),
        );
        const grouped = groupByDay(slots, days, starts);
        expect(Object.keys(grouped)).toEqual(days);
        for (const [day, list] of Object.entries(grouped))
          for (const s of list) expect(localDateOf(s.start, zone)).toBe(day);
      }),
      { numRuns: 100 },
    );
  });
});

// Its speed is measured in `npm run bench -- bookings` (slots_p95_ms_31d), never in a timed test.
