import { describe, expect, it } from 'vitest';
import { startOfDay } from '@/app/_components/zoned-time';
import { blockKind, isMuted, nextRefetchIn, packLanes, place, visibleHours } from './layout';

const at = (iso: string) => Date.parse(iso);
const madrid = (date: string, next: string) => ({
  start: startOfDay(date, 'Europe/Madrid'),
  end: startOfDay(next, 'Europe/Madrid'),
  zone: 'Europe/Madrid',
});

describe('place: wall-clock minutes of the calendar zone, clipped to the day', () => {
  it('draws a spring-change day (23 hours) by its wall clock', () => {
    const day = madrid('2027-03-28', '2027-03-29');
    expect(day.end - day.start).toBe(23 * 3_600_000);
    // 10:00–11:00 Madrid summer time.
    expect(place({ from: at('2027-03-28T08:00:00Z'), until: at('2027-03-28T09:00:00Z') }, day)).toEqual({
      top: 600,
      bottom: 660,
    });
    // From the evening before: only its part after midnight.
    expect(place({ from: at('2027-03-27T22:30:00Z'), until: at('2027-03-27T23:30:00Z') }, day)).toEqual({
      top: 0,
      bottom: 30,
    });
    // Up to the next midnight: the bottom of the day.
    expect(place({ from: at('2027-03-28T21:00:00Z'), until: at('2027-03-28T23:00:00Z') }, day)).toEqual({
      top: 1380,
      bottom: 1440,
    });
    expect(place({ from: at('2027-03-29T08:00:00Z'), until: at('2027-03-29T09:00:00Z') }, day)).toBeNull();
  });

  it('keeps an interval inside the repeated autumn hour its length', () => {
    const day = madrid('2027-10-31', '2027-11-01');
    // 02:30 summer time to 02:15 winter time: 45 minutes that end at an earlier wall time.
    expect(place({ from: at('2027-10-31T00:30:00Z'), until: at('2027-10-31T01:15:00Z') }, day)).toEqual({
      top: 150,
      bottom: 195,
    });
  });
});

describe('packLanes: overlapping blocks side by side', () => {
  it('gives each cluster of overlaps its own number of lanes, reusing a lane once it is free', () => {
    const out = packLanes([
      { id: 'a', top: 600, bottom: 660 },
      { id: 'b', top: 630, bottom: 690 },
      { id: 'c', top: 660, bottom: 720 },
      { id: 'd', top: 800, bottom: 860 },
    ]);
    const byId = Object.fromEntries(out.map((x) => [x.id, [x.lane, x.lanes]]));
    expect(byId).toEqual({ a: [0, 2], b: [1, 2], c: [0, 2], d: [0, 1] });
  });

  it('treats touching blocks as not overlapping', () => {
    const out = packLanes([
      { top: 600, bottom: 660 },
      { top: 660, bottom: 720 },
    ]);
    expect(out.map((x) => [x.lane, x.lanes])).toEqual([
      [0, 1],
      [0, 1],
    ]);
  });
});

describe('visibleHours', () => {
  it('spans the placed intervals with an hour either side, within the day', () => {
    expect(visibleHours([{ top: 540, bottom: 1020 }])).toEqual({ start: 8, end: 18 });
    expect(
      visibleHours([
        { top: 0, bottom: 90 },
        { top: 1400, bottom: 1440 },
      ]),
    ).toEqual({ start: 0, end: 24 });
    expect(visibleHours([])).toEqual({ start: 8, end: 18 });
  });
});

describe('blockKind and refetching around holds', () => {
  const now = at('2027-01-12T10:00:00Z');
  it('draws a hold as a hold until it ends, then as ended before the server expires it', () => {
    expect(blockKind({ status: 'pending', hold_expires_at: '2027-01-12T10:05:00Z' }, now)).toBe('hold');
    expect(blockKind({ status: 'pending', hold_expires_at: '2027-01-12T09:59:59Z' }, now)).toBe('hold_ended');
    expect(blockKind({ status: 'pending', hold_expires_at: null }, now)).toBe('pending');
    expect(blockKind({ status: 'expired', hold_expires_at: '2027-01-12T09:00:00Z' }, now)).toBe('muted');
    expect(isMuted(blockKind({ status: 'no_show', hold_expires_at: null }, now))).toBe(true);
    expect(isMuted(blockKind({ status: 'confirmed', hold_expires_at: null }, now))).toBe(false);
  });

  it('reads again just after the next hold ends, then quickly until it has expired', () => {
    expect(nextRefetchIn([{ status: 'confirmed', hold_expires_at: null }], now)).toBe(30_000);
    expect(nextRefetchIn([{ status: 'pending', hold_expires_at: '2027-01-12T10:00:04Z' }], now)).toBe(4_500);
    expect(nextRefetchIn([{ status: 'pending', hold_expires_at: '2027-01-12T09:59:00Z' }], now)).toBe(1_500);
    expect(nextRefetchIn([{ status: 'expired', hold_expires_at: '2027-01-12T09:59:00Z' }], now)).toBe(30_000);
    expect(nextRefetchIn([{ status: 'pending', hold_expires_at: '2027-01-13T10:00:00Z' }], now)).toBe(30_000);
  });
});
