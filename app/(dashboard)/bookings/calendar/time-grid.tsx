'use client';
/**
 * The calendar's time grid: an hour axis and one column per resource (day view) or per day (week
 * view). In each column, working hours are lit and the rest shaded; time off, bookings (coloured by
 * status, holds striped with the time they end) and, for the chosen service, the free slots, each a
 * button that starts a booking at that time. Overlapping blocks sit side by side; cancelled, expired
 * and no-show bookings take the right half, faded, so the free time under them stays clickable.
 */
import type { CSSProperties, ReactNode } from 'react';
import type { RouterOutputs } from '@/app/_components/trpc';
import { cn } from '@/app/_components/ui';
import { formatClock, formatDateTime, formatDay } from '@/app/_components/zoned-time';
import {
  type BlockKind,
  blockKind,
  type DayBounds,
  isMuted,
  type Placed,
  packLanes,
  place,
  visibleHours,
} from './layout';

export type Schedule = RouterOutputs['resources']['getResourceSchedule'];
export type CalendarBooking = Schedule['bookings'][number];
export type CalendarResource = Schedule['resource'];
export type FreeSlot = RouterOutputs['bookings']['listSlots']['days'][string][number];

export interface GridColumn {
  key: string;
  header: ReactNode;
  /** Marks today's column. */
  today?: boolean;
  resource: CalendarResource;
  bounds: DayBounds;
  schedule: Schedule | undefined;
  /** The chosen service's free slots of this resource starting in this column's day. */
  slots: FreeSlot[];
}

const KIND_CLASSES: Record<BlockKind, string> = {
  confirmed: 'border-ok bg-ok-soft text-[#134d2d]',
  pending: 'border-warn bg-warn-soft text-[#5c3d00]',
  hold: 'border-warn text-[#5c3d00] bg-[repeating-linear-gradient(135deg,#fdf3d7_0_7px,#f8e3a6_7px_14px)]',
  hold_ended: 'border-[#9aa6b2] bg-[#f3f4f6] text-muted',
  completed: 'border-info bg-info-soft text-[#1b3a9c]',
  muted: 'border-[#9aa6b2] bg-[#f3f4f6] text-muted',
};

export const KIND_LABELS: Record<BlockKind, string> = {
  confirmed: 'Confirmed',
  pending: 'Pending',
  hold: 'Hold (ends unless confirmed)',
  hold_ended: 'Hold ended',
  completed: 'Completed',
  muted: 'Cancelled, expired or no-show',
};

export function blockClass(kind: BlockKind) {
  return KIND_CLASSES[kind];
}

export const TIME_OFF_CLASS =
  'border-border bg-[repeating-linear-gradient(45deg,#e3e6ea_0_6px,#f1f3f5_6px_12px)] text-muted';

export function TimeGrid({
  columns,
  zone,
  now,
  showMuted,
  slotMinutes,
  pxPerMinute,
  minColumnWidth,
  onSlot,
  onBooking,
}: {
  columns: GridColumn[];
  zone: string;
  now: number;
  showMuted: boolean;
  /** How tall a free slot is drawn: the grid step, at most the service's duration. */
  slotMinutes: number;
  pxPerMinute: number;
  minColumnWidth: string;
  onSlot?: (column: GridColumn, slot: FreeSlot) => void;
  onBooking: (booking: CalendarBooking, column: GridColumn) => void;
}) {
  const laidOut = columns.map((column) => layoutColumn(column, now, showMuted, slotMinutes));
  const hours = visibleHours(
    laidOut.flatMap((c) => [
      ...c.working,
      ...c.bookings.map((b) => b.placed),
      ...c.muted.map((b) => b.placed),
      ...c.slots.map((s) => s.placed),
    ]),
  );
  const top = hours.start * 60;
  const height = (hours.end - hours.start) * 60 * pxPerMinute;
  const y = (minutes: number) => (minutes - top) * pxPerMinute;
  const h = (p: Placed) =>
    Math.max(14, (Math.min(p.bottom, hours.end * 60) - Math.max(p.top, top)) * pxPerMinute);
  const hourMarks = Array.from({ length: hours.end - hours.start }, (_, i) => hours.start + i);

  return (
    <div
      className="relative w-full overflow-x-auto rounded-card border border-border bg-panel"
      data-testid="calendar-grid"
    >
      <div
        className="grid"
        style={{ gridTemplateColumns: `3.25rem repeat(${columns.length}, minmax(${minColumnWidth}, 1fr))` }}
      >
        <div className="border-b border-border bg-subtle" />
        {columns.map((column) => (
          <div
            key={column.key}
            className={cn(
              'min-w-0 border-b border-l border-border px-2 py-1.5 text-sm',
              column.today ? 'bg-accent-soft' : 'bg-subtle',
            )}
          >
            {column.header}
          </div>
        ))}
        <div className="relative" style={{ height }} aria-hidden="true">
          {hourMarks.map((hour) => (
            <div
              key={hour}
              className="absolute right-1.5 -translate-y-1/2 text-[0.7rem] text-muted tabular-nums first:translate-y-0"
              style={{ top: y(hour * 60) }}
            >
              {`${String(hour).padStart(2, '0')}:00`}
            </div>
          ))}
        </div>
        {laidOut.map(({ column, working, timeOff, bookings, muted, slots }) => (
          <section
            key={column.key}
            aria-label={columnLabel(column)}
            data-testid={`column-${column.key}`}
            className="relative min-w-0 overflow-hidden border-l border-border bg-[#e9ecf0]"
            style={{ height }}
          >
            {working.map((p) => (
              <div
                key={`w${p.top}`}
                className="absolute inset-x-0 bg-panel"
                style={{ top: y(p.top), height: h(p) }}
                data-testid="working-hours"
              />
            ))}
            {hourMarks.map((hour) => (
              <div
                key={hour}
                className="pointer-events-none absolute inset-x-0 border-t border-border/80"
                style={{ top: y(hour * 60) }}
              />
            ))}
            {slots.map(({ slot, placed, narrow }) => (
              <button
                key={slot.start}
                type="button"
                disabled={!onSlot}
                onClick={() => onSlot?.(column, slot)}
                // The name starts with what is seen ("14:30 free"), then says what pressing it does.
                aria-label={`${formatClock(slot.start, zone)} free: book ${formatDay(slot.start, zone)} on ${column.resource.name}`}
                data-testid="free-slot"
                className={cn(
                  narrow ? 'w-[calc(45%-0.25rem)]' : 'w-[calc(100%-0.5rem)]',
                  'absolute left-1 cursor-pointer overflow-hidden rounded-[4px] border border-ok/35',
                  'bg-ok-soft/60 px-1.5 text-left text-[0.72rem] leading-tight font-semibold text-ok-strong',
                  'hover:border-ok hover:bg-ok-soft disabled:cursor-default',
                )}
                style={{ top: y(placed.top) + 1, height: h(placed) - 2 }}
              >
                {/* The space outside the span: axe (and some readers) join "14:00" and " free" as "14:00free". */}
                {formatClock(slot.start, zone)} <span className="font-normal">free</span>
              </button>
            ))}
            {timeOff.map(({ entry, placed, lane, lanes }) => (
              <div
                key={entry.id}
                className={cn(
                  'absolute overflow-hidden rounded-[4px] border px-1.5 py-0.5 text-xs',
                  TIME_OFF_CLASS,
                )}
                style={{ ...box(y(placed.top), h(placed), lane, lanes, 0, 1) }}
                data-testid={`time-off-${entry.id}`}
              >
                <span className="font-semibold">Time off</span>
                {entry.reason && <span className="block truncate">{entry.reason}</span>}
              </div>
            ))}
            {[
              ...bookings.map((b) => ({ ...b, region: [0, 1] as const })),
              ...muted.map((b) => ({ ...b, region: [0.45, 0.55] as const })),
            ].map(({ booking, kind, placed, lane, lanes, region }) => (
              <BookingBlock
                key={booking.id}
                booking={booking}
                kind={kind}
                zone={zone}
                style={box(y(placed.top), h(placed), lane, lanes, region[0], region[1])}
                onClick={() => onBooking(booking, column)}
              />
            ))}
            {now >= column.bounds.start && now < column.bounds.end && (
              <NowLine minutes={placeNow(now, column.bounds)} top={y} visible={hours} />
            )}
          </section>
        ))}
      </div>
    </div>
  );
}

function placeNow(now: number, bounds: DayBounds) {
  return place({ from: now, until: now + 60_000 }, bounds)?.top ?? 0;
}

function NowLine({
  minutes,
  top,
  visible,
}: {
  minutes: number;
  top: (minutes: number) => number;
  visible: { start: number; end: number };
}) {
  if (minutes < visible.start * 60 || minutes >= visible.end * 60) return null;
  return (
    <div
      className="pointer-events-none absolute inset-x-0 z-20 border-t-2 border-error"
      style={{ top: top(minutes) }}
    >
      <span className="absolute -top-[5px] -left-[5px] size-2 rounded-full bg-error" />
      <span className="sr-only">Now</span>
    </div>
  );
}

function box(top: number, height: number, lane: number, lanes: number, left: number, width: number) {
  const laneWidth = width / lanes;
  return {
    top: top + 1,
    height: height - 2,
    left: `calc(${(left + lane * laneWidth) * 100}% + 2px)`,
    width: `calc(${laneWidth * 100}% - 4px)`,
  };
}

function columnLabel(column: GridColumn) {
  return `${column.resource.name}, ${formatDateTime(column.bounds.start, column.bounds.zone).replace(/, \d\d:\d\d$/, '')}`;
}

function BookingBlock({
  booking,
  kind,
  zone,
  style,
  onClick,
}: {
  booking: CalendarBooking;
  kind: BlockKind;
  zone: string;
  style: CSSProperties;
  onClick: () => void;
}) {
  const when = `${formatClock(booking.start_at, zone)}–${formatClock(booking.end_at, zone)}`;
  const state =
    kind === 'hold' && booking.hold_expires_at
      ? `Hold until ${formatClock(booking.hold_expires_at, zone)}`
      : kind === 'hold_ended'
        ? 'Hold ended'
        : booking.status.replaceAll('_', ' ');
  // A short block (under ~3 lines) says everything on one line, its state first for a hold.
  const compact = typeof style.height === 'number' && style.height < 44;
  const service = booking.service ? `, ${booking.service}` : '';
  // The name starts with the text the block shows, then adds what a short block leaves out.
  const seen = compact
    ? `${kind !== 'confirmed' ? `${state} · ` : ''}${formatClock(booking.start_at, zone)} ${booking.customer.name}`
    : `${when} ${booking.customer.name}`;
  const name = compact
    ? `${seen}, until ${formatClock(booking.end_at, zone)}${service}${kind === 'confirmed' ? `, ${state}` : ''}`
    : `${seen}${service}, ${state}`;
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={`booking-block-${booking.id}`}
      data-status={booking.status}
      data-kind={kind}
      aria-label={name}
      className={cn(
        'absolute z-10 cursor-pointer overflow-hidden rounded-[4px] border border-l-4 px-1.5 py-0.5 text-left text-xs leading-tight',
        'shadow-sm hover:brightness-[0.97] focus-visible:z-30',
        kind === 'hold' && 'border-dashed',
        isMuted(kind) && 'opacity-85',
        blockClass(kind),
      )}
      style={style}
    >
      {compact ? (
        <span className="block truncate">
          {kind !== 'confirmed' && <span className="font-semibold">{state} ·</span>}{' '}
          <span className="tabular-nums">{formatClock(booking.start_at, zone)}</span>{' '}
          <span className={cn('font-medium', booking.status === 'cancelled' && 'line-through')}>
            {booking.customer.name}
          </span>
        </span>
      ) : (
        <>
          <span className="font-semibold tabular-nums">{when}</span>{' '}
          <span className={cn('font-medium', booking.status === 'cancelled' && 'line-through')}>
            {booking.customer.name}
          </span>
          {/* Spaces between the lines, so the text reads "… Grace Hopper Check-up pending", not "HopperCheck-up". */}
          {booking.service && (
            <>
              {' '}
              <span className="block truncate">{booking.service}</span>
            </>
          )}{' '}
          <span className="block truncate font-semibold">{state}</span>
        </>
      )}
    </button>
  );
}

interface Laid<T> {
  placed: Placed;
  lane: number;
  lanes: number;
  entry: T;
}

function layoutColumn(column: GridColumn, now: number, showMuted: boolean, slotMinutes: number) {
  const { bounds, schedule } = column;
  const working: Placed[] = [];
  for (const w of schedule?.working_hours ?? []) {
    const p = place({ from: Date.parse(w.start), until: Date.parse(w.end) }, bounds);
    if (p) working.push(p);
  }
  type Item =
    | (Placed & { type: 'off'; entry: Schedule['time_off'][number] })
    | (Placed & { type: 'booking'; booking: CalendarBooking; kind: BlockKind });
  const active: Item[] = [];
  const faded: (Placed & { booking: CalendarBooking; kind: BlockKind })[] = [];
  for (const entry of schedule?.time_off ?? []) {
    const p = place({ from: Date.parse(entry.start_at), until: Date.parse(entry.end_at) }, bounds);
    if (p) active.push({ ...p, type: 'off', entry });
  }
  for (const booking of schedule?.bookings ?? []) {
    const p = place({ from: Date.parse(booking.start_at), until: Date.parse(booking.end_at) }, bounds);
    if (!p) continue;
    const kind = blockKind(booking, now);
    if (!isMuted(kind)) active.push({ ...p, type: 'booking', booking, kind });
    else if (showMuted) faded.push({ ...p, booking, kind });
  }
  const packed = packLanes(active);
  const timeOff: Laid<Schedule['time_off'][number]>[] = [];
  const bookings: {
    booking: CalendarBooking;
    kind: BlockKind;
    placed: Placed;
    lane: number;
    lanes: number;
  }[] = [];
  for (const item of packed) {
    const placed = { top: item.top, bottom: item.bottom };
    if (item.type === 'off') timeOff.push({ placed, lane: item.lane, lanes: item.lanes, entry: item.entry });
    else
      bookings.push({ booking: item.booking, kind: item.kind, placed, lane: item.lane, lanes: item.lanes });
  }
  const muted = packLanes(faded).map((item) => ({
    booking: item.booking,
    kind: item.kind,
    placed: { top: item.top, bottom: item.bottom },
    lane: item.lane,
    lanes: item.lanes,
  }));
  const slots = column.slots.flatMap((slot) => {
    const start = Date.parse(slot.start);
    const placed = place(
      { from: start, until: Math.min(Date.parse(slot.end), start + slotMinutes * 60_000) },
      bounds,
    );
    if (!placed) return [];
    // Beside a faded booking (a cancelled one's time is free again), the slot keeps the left part.
    const narrow = muted.some((m) => m.placed.top < placed.bottom && m.placed.bottom > placed.top);
    return [{ slot, placed, narrow }];
  });
  return { column, working, timeOff, bookings, muted, slots };
}
