/**
 * Where things go on the bookings calendar's time grid, as pure functions (unit-tested in
 * layout.test.ts): an interval's top and bottom in a day column (wall-clock minutes in the calendar's
 * zone, as Google Calendar draws a DST day), side-by-side lanes for blocks that overlap, the hours the
 * grid shows, and how a booking looks for its status and hold.
 */
import { wallMinutes } from '@/app/_components/zoned-time';

/** A half-open interval [from, until) in epoch milliseconds. */
export interface Span {
  from: number;
  until: number;
}

/** A day column's bounds: [start, end) instants of its local date in the calendar's zone. */
export interface DayBounds {
  start: number;
  end: number;
  zone: string;
}

/** Minutes from local midnight: top inclusive, bottom exclusive (1440 = the end of the day). */
export interface Placed {
  top: number;
  bottom: number;
}

const MINUTE = 60_000;

/** The part of `span` inside the day, in wall-clock minutes of the day's zone; null when none is. */
export function place(span: Span, day: DayBounds): Placed | null {
  const from = Math.max(span.from, day.start);
  const until = Math.min(span.until, day.end);
  if (until <= from) return null;
  const top = from <= day.start ? 0 : wallMinutes(from, day.zone);
  let bottom = until >= day.end ? 1440 : wallMinutes(until, day.zone);
  // An autumn night repeats an hour: an interval inside it can end at an earlier wall time.
  if (bottom <= top) bottom = Math.min(1440, top + Math.max(1, Math.round((until - from) / MINUTE)));
  return { top, bottom };
}

/**
 * Lanes for blocks that overlap: each block gets a lane and the number of lanes of its cluster (the
 * blocks it overlaps, transitively), so that `left = lane / lanes` and `width = 1 / lanes`.
 */
export function packLanes<T extends Placed>(items: T[]): (T & { lane: number; lanes: number })[] {
  const sorted = [...items].sort((a, b) => a.top - b.top || b.bottom - a.bottom);
  const out: (T & { lane: number; lanes: number })[] = [];
  let cluster: (T & { lane: number; lanes: number })[] = [];
  let laneEnds: number[] = [];
  let clusterEnd = -1;
  const close = () => {
    for (const item of cluster) item.lanes = laneEnds.length;
    out.push(...cluster);
    cluster = [];
    laneEnds = [];
  };
  for (const item of sorted) {
    if (item.top >= clusterEnd) close();
    let lane = laneEnds.findIndex((end) => end <= item.top);
    if (lane === -1) {
      lane = laneEnds.length;
      laneEnds.push(item.bottom);
    } else laneEnds[lane] = item.bottom;
    cluster.push({ ...item, lane, lanes: 1 });
    clusterEnd = Math.max(clusterEnd, item.bottom);
  }
  close();
  return out;
}

/**
 * The hours the grid shows: from the hour before the earliest of `placed` to the hour after the
 * latest (whole hours, within the day), or `fallback` when nothing is placed.
 */
export function visibleHours(
  placed: Placed[],
  fallback = { start: 8, end: 18 },
): { start: number; end: number } {
  if (placed.length === 0) return fallback;
  const top = Math.min(...placed.map((p) => p.top));
  const bottom = Math.max(...placed.map((p) => p.bottom));
  return {
    start: Math.max(0, Math.floor(top / 60) - 1),
    end: Math.min(24, Math.ceil(bottom / 60) + 1),
  };
}

/** How a booking is drawn. */
export type BlockKind = 'confirmed' | 'pending' | 'hold' | 'hold_ended' | 'completed' | 'muted';

export interface BookingLike {
  status: string;
  hold_expires_at: string | null;
}

/**
 * A pending booking with a hold is a hold until `hold_expires_at`; once that has passed it is drawn as
 * ended at once, before the server's expiry (within seconds) makes it `expired`.
 */
export function blockKind(booking: BookingLike, now: number): BlockKind {
  switch (booking.status) {
    case 'confirmed':
      return 'confirmed';
    case 'completed':
      return 'completed';
    case 'pending':
      if (!booking.hold_expires_at) return 'pending';
      return Date.parse(booking.hold_expires_at) <= now ? 'hold_ended' : 'hold';
    default:
      // cancelled, expired, no_show
      return 'muted';
  }
}

/** Drawn faded, and hidden when the calendar hides cancelled, expired and no-show bookings. */
export function isMuted(kind: BlockKind): boolean {
  return kind === 'muted' || kind === 'hold_ended';
}

/**
 * When the calendar should read the schedule again: just after the next hold ends (and then every
 * 1.5 s while an ended hold still shows as pending, until the server has expired it), else in 30 s.
 */
export function nextRefetchIn(bookings: BookingLike[], now: number): number {
  let soonest = Number.POSITIVE_INFINITY;
  for (const b of bookings) {
    if (b.status !== 'pending' || !b.hold_expires_at) continue;
    soonest = Math.min(soonest, Date.parse(b.hold_expires_at));
  }
  if (soonest === Number.POSITIVE_INFINITY) return 30_000;
  if (soonest <= now) return 1_500;
  return Math.min(30_000, soonest - now + 500);
}
