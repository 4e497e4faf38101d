'use client';
/**
 * The bookings calendar: a day view (one column per chosen resource, side by side) or a week view (one
 * resource, a column per day), drawn in the first chosen resource's time zone, from each resource's
 * schedule (GET /resources/{id}/schedule: working hours, bookings, time off) and the chosen service's
 * free slots (GET /slots). A free slot opens the booking form; a booking opens its details and
 * actions. What is shown lives in the URL (mode, date, resources, service, faded bookings), so a view
 * can be reloaded and shared. A phone shows one day.
 *
 * A hold is seen to end: its block turns to "Hold ended" when its time passes, and the schedule is
 * read again just after (then every 1.5 s until the server has expired it), so it shows as expired
 * within seconds.
 */
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Loading } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Checkbox,
  cn,
  EmptyState,
  ErrorNotice,
  Segmented,
  Select,
  ToggleButton,
  useFeedback,
} from '@/app/_components/ui';
import { useMediaQuery } from '@/app/_components/use-media-query';
import { useViewer } from '@/app/_components/viewer';
import {
  addDays,
  formatClock,
  formatDate,
  isPlainDate,
  localDateOf,
  mondayOf,
  startOfDay,
  todayIn,
} from '@/app/_components/zoned-time';
import { BookDialog, type BookTarget } from './book-dialog';
import { BookingDetails } from './booking-details';
import { nextRefetchIn } from './layout';
import {
  blockClass,
  type CalendarBooking,
  type CalendarResource,
  type FreeSlot,
  type GridColumn,
  KIND_LABELS,
  TIME_OFF_CLASS,
  TimeGrid,
} from './time-grid';

type Mode = 'day' | 'week';

/** The calendar's URL: ?view=calendar&mode=week&date=2027-03-01&r=res_a,res_b&service=svc_x&faded=hide */
function useCalendarParams() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const set = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };
  return {
    mode: (params.get('mode') === 'week' ? 'week' : 'day') as Mode,
    date: params.get('date'),
    resourceIds: (params.get('r') ?? '').split(',').filter(Boolean),
    service: params.get('service'),
    showFaded: params.get('faded') !== 'hide',
    set,
  };
}

/** Re-renders every `ms` with the current time (hold blocks turn "ended" when their time passes). */
function useNow(ms: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export function BookingsCalendar() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useViewer();
  const url = useCalendarParams();
  const wide = useMediaQuery('(min-width: 768px)');
  const now = useNow(1000);
  const feedback = useFeedback();
  const [booking, setBooking] = useState<{ id: string; initial: CalendarBooking } | null>(null);
  const [target, setTarget] = useState<BookTarget | null>(null);

  const resourcesQuery = useQuery(trpc.resources.listResources.queryOptions({ limit: 100 }));
  const servicesQuery = useQuery(trpc.services.listServices.queryOptions({ limit: 100 }));
  const allResources = useMemo(
    () => [...(resourcesQuery.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    [resourcesQuery.data],
  );
  const services = servicesQuery.data?.data ?? [];

  // What is shown: the resources named in the URL that exist, else the first active one.
  const known = allResources.filter((r) => url.resourceIds.includes(r.id));
  const fallback = allResources.find((r) => r.is_active) ?? allResources[0];
  const chosen = known.length > 0 ? known : fallback ? [fallback] : [];
  const mode: Mode = wide ? url.mode : 'day';
  const shown = mode === 'week' ? chosen.slice(0, 1) : chosen;
  const zone = shown[0]?.time_zone ?? 'UTC';
  const date = isPlainDate(url.date) ? url.date : todayIn(zone, now);
  const dates = mode === 'week' ? Array.from({ length: 7 }, (_, i) => addDays(mondayOf(date), i)) : [date];
  const from = new Date(startOfDay(dates[0], zone)).toISOString();
  const to = new Date(startOfDay(addDays(dates[dates.length - 1], 1), zone)).toISOString();

  // The services offered by a shown resource; the URL's choice, else the first active one ("none": no free times).
  const offered = services.filter(
    (s) => s.is_active && s.resource_ids.some((id) => shown.some((r) => r.id === id)),
  );
  const service =
    url.service === 'none' ? undefined : (offered.find((s) => s.id === url.service) ?? offered[0]);

  const schedules = useQueries({
    queries: shown.map((r) => ({
      ...trpc.resources.getResourceSchedule.queryOptions({ id: r.id, from, to }),
      refetchInterval: (query: { state: { data?: { bookings: CalendarBooking[] } } }) =>
        nextRefetchIn(query.state.data?.bookings ?? [], Date.now()),
    })),
  });
  const slotsQuery = useQuery({
    ...trpc.bookings.listSlots.queryOptions({
      service_id: service?.id ?? '',
      start: dates[0],
      end: dates[dates.length - 1],
      time_zone: zone,
    }),
    enabled: Boolean(service) && shown.length > 0,
    refetchInterval: 30_000,
  });

  // When a booking changes state (a hold expired, someone booked), the free times change too.
  const signature = schedules
    .flatMap((s) => s.data?.bookings.map((b) => `${b.id}:${b.status}:${b.start_at}:${b.resource_id}`) ?? [])
    .join('|');
  const seen = useRef(signature);
  useEffect(() => {
    // Not on the first read (the slots were just read too), nor when the view moved to other bookings.
    if (seen.current && signature && seen.current !== signature)
      void queryClient.invalidateQueries({ queryKey: trpc.bookings.listSlots.pathKey() });
    seen.current = signature;
  }, [signature, queryClient, trpc]);

  const byResource = new Map(shown.map((r, i) => [r.id, schedules[i]?.data]));
  const columns: GridColumn[] = shown.flatMap((resource) =>
    dates.map((d) => {
      const slots: FreeSlot[] = (slotsQuery.data?.days[d] ?? []).filter((s) =>
        s.resource_ids.includes(resource.id),
      );
      const today = d === todayIn(zone, now);
      return {
        key: mode === 'week' ? d : resource.id,
        header:
          mode === 'week' ? (
            <DayHeader date={d} today={today} />
          ) : (
            <ResourceHeader resource={resource} zone={zone} />
          ),
        today: mode === 'week' && today,
        resource,
        bounds: { start: startOfDay(d, zone), end: startOfDay(addDays(d, 1), zone), zone },
        schedule: byResource.get(resource.id),
        slots: service?.resource_ids.includes(resource.id) ? slots : [],
      };
    }),
  );

  if (resourcesQuery.isPending || servicesQuery.isPending) return <Loading />;
  if (resourcesQuery.error) return <ErrorNotice error={resourcesQuery.error} />;
  if (allResources.length === 0) {
    return (
      <EmptyState
        action={
          can('resources.write') ? (
            <Button asChild>
              <Link href="/settings/resources">Add a resource</Link>
            </Button>
          ) : undefined
        }
      >
        No resources yet: the calendar shows the bookings of staff, rooms and equipment. Bookings without a
        resource are in the list.
      </EmptyState>
    );
  }

  const step = mode === 'week' ? 7 : 1;
  const chooseResource = (id: string) => {
    if (mode === 'week') return url.set({ r: id });
    const ids = chosen.map((r) => r.id);
    const next = ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
    url.set({ r: next.length > 0 ? next.join(',') : id });
  };
  const book = (column: GridColumn, slot: FreeSlot) => {
    if (!service) return;
    setTarget({
      service,
      resource: column.resource,
      zone,
      date: localDateOf(Date.parse(slot.start), zone),
      start: slot.start,
    });
  };
  const scheduleError = schedules.find((s) => s.error)?.error;
  const loading = schedules.some((s) => s.isPending);
  const slotMinutes = service ? Math.min(service.slot_interval_minutes, service.duration_minutes) : 30;
  const names = new Map(allResources.map((r) => [r.id, r.name]));

  return (
    <div className="flex min-w-0 flex-col gap-3">
      {feedback.node}
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex items-center">
          <Button
            variant="secondary"
            className="rounded-r-none"
            aria-label={mode === 'week' ? 'Previous week' : 'Previous day'}
            onClick={() => url.set({ date: addDays(date, -step) })}
          >
            ‹
          </Button>
          <Button variant="secondary" className="-ml-px rounded-none" onClick={() => url.set({ date: null })}>
            Today
          </Button>
          <Button
            variant="secondary"
            className="-ml-px rounded-l-none"
            aria-label={mode === 'week' ? 'Next week' : 'Next day'}
            onClick={() => url.set({ date: addDays(date, step) })}
          >
            ›
          </Button>
        </div>
        <h2 className="min-w-0 text-lg font-semibold" aria-live="polite" data-testid="calendar-title">
          {mode === 'week'
            ? `${formatDate(dates[0], { weekday: false })} – ${formatDate(dates[6], { weekday: false, year: true })}`
            : formatDate(date, { year: true })}
        </h2>
        <label className="sr-only" htmlFor="calendar-date">
          Go to date
        </label>
        <input
          id="calendar-date"
          type="date"
          value={date}
          onChange={(e) => isPlainDate(e.target.value) && url.set({ date: e.target.value })}
          className="rounded-control border border-border bg-panel px-2 py-1.5 text-sm"
        />
        {wide && (
          <Segmented
            label="Calendar view"
            className="md:ml-auto"
            value={mode}
            options={[
              { value: 'day', label: 'Day' },
              { value: 'week', label: 'Week' },
            ]}
            onChange={(value) => url.set({ mode: value === 'day' ? null : value })}
          />
        )}
      </div>

      <fieldset className="flex min-w-0 flex-wrap items-center gap-1.5">
        <legend className="sr-only">{mode === 'week' ? 'Resource' : 'Resources shown side by side'}</legend>
        <span className="mr-1 text-sm font-semibold" aria-hidden="true">
          {mode === 'week' || !wide ? 'Resource' : 'Resources'}
        </span>
        {allResources.map((r) => (
          <ToggleButton
            key={r.id}
            pressed={shown.some((s) => s.id === r.id)}
            onClick={() => (wide ? chooseResource(r.id) : url.set({ r: r.id }))}
            className="max-w-full"
          >
            <span className="truncate">{r.name}</span>
            {!r.is_active && <span className="text-xs text-muted">(inactive)</span>}
          </ToggleButton>
        ))}
      </fieldset>

      <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <label htmlFor="calendar-service" className="text-sm font-semibold whitespace-nowrap">
            Free times for
          </label>
          <Select
            id="calendar-service"
            inline
            className="max-w-[18rem]"
            value={service?.id ?? 'none'}
            onChange={(e) => url.set({ service: e.target.value })}
          >
            <option value="none">no service (hide free times)</option>
            {offered.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.duration_minutes} min)
              </option>
            ))}
          </Select>
        </div>
        <Checkbox
          label="Show cancelled, expired and no-shows"
          checked={url.showFaded}
          onChange={(e) => url.set({ faded: e.target.checked ? null : 'hide' })}
        />
      </div>

      <p className="text-sm text-muted" data-testid="calendar-zone">
        Times in <strong className="text-fg">{zone}</strong>
        {shown.length === 1 ? `, ${shown[0].name}’s time zone.` : `, the time zone of ${shown[0]?.name}.`}
        {offered.length === 0 &&
          ' No active service offers these resources: add one in Settings › Services to book here.'}
      </p>

      {!wide && service && (
        <PhoneSlots
          columns={columns.filter((c) => service.resource_ids.includes(c.resource.id))}
          zone={zone}
          names={names}
          onSlot={can('bookings.write') ? book : undefined}
        />
      )}

      {scheduleError ? <ErrorNotice error={scheduleError} /> : null}
      {slotsQuery.error ? <ErrorNotice error={slotsQuery.error} /> : null}
      <div className={cn('relative', loading && 'opacity-60')} aria-busy={loading || undefined}>
        <TimeGrid
          columns={columns}
          zone={zone}
          now={now}
          showMuted={url.showFaded}
          slotMinutes={slotMinutes}
          pxPerMinute={wide ? 1 : 1.2}
          minColumnWidth={mode === 'week' ? '6.5rem' : shown.length > 1 ? '10rem' : '0px'}
          onSlot={can('bookings.write') ? book : undefined}
          onBooking={(b) => setBooking({ id: b.id, initial: b })}
        />
      </div>
      <Legend />

      {target && (
        <BookDialog
          target={target}
          slots={(slotsQuery.data?.days[target.date] ?? []).filter((s) =>
            s.resource_ids.includes(target.resource.id),
          )}
          onClose={() => setTarget(null)}
          feedback={feedback}
        />
      )}
      {booking && (
        <BookingDetails
          id={booking.id}
          initial={booking.initial}
          zone={zone}
          resources={allResources}
          services={services}
          onClose={() => setBooking(null)}
          onMoved={(moved) => url.set({ date: localDateOf(Date.parse(moved.start_at), zone) })}
          feedback={feedback}
        />
      )}
    </div>
  );
}

function DayHeader({ date, today }: { date: string; today: boolean }) {
  return (
    <div className={cn('truncate', today && 'font-semibold text-accent')}>
      {formatDate(date)}
      {today && <span className="sr-only"> (today)</span>}
    </div>
  );
}

function ResourceHeader({ resource, zone }: { resource: CalendarResource; zone: string }) {
  return (
    <div className="min-w-0">
      <div className="truncate font-semibold">{resource.name}</div>
      <div className="truncate text-xs text-muted">
        {resource.kind}
        {resource.time_zone !== zone && ` · works in ${resource.time_zone}`}
        {!resource.is_active && ' · inactive'}
      </div>
    </div>
  );
}

/** On a phone, the day's free times as large buttons above the grid (thumb-sized targets). */
function PhoneSlots({
  columns,
  zone,
  names,
  onSlot,
}: {
  columns: GridColumn[];
  zone: string;
  names: Map<string, string>;
  onSlot?: (column: GridColumn, slot: FreeSlot) => void;
}) {
  return (
    <section aria-label="Free times" className="flex flex-col gap-2">
      {columns.map((column) => (
        <div key={column.key}>
          <h3 className="mb-1 text-sm font-semibold">
            Free times{columns.length > 1 ? ` · ${names.get(column.resource.id)}` : ''}
          </h3>
          {column.slots.length === 0 ? (
            <p className="text-sm text-muted">None this day.</p>
          ) : (
            <div className="flex flex-wrap gap-1.5">
              {column.slots.map((slot) => (
                <Button
                  key={slot.start}
                  variant="secondary"
                  className="min-h-11 min-w-[4.5rem] border-ok/40 bg-ok-soft text-ok tabular-nums"
                  disabled={!onSlot}
                  onClick={() => onSlot?.(column, slot)}
                >
                  {formatClock(slot.start, zone)}
                </Button>
              ))}
            </div>
          )}
        </div>
      ))}
    </section>
  );
}

function Legend() {
  const item = (className: string, label: string) => (
    <li className="flex items-center gap-1.5">
      <span className={cn('inline-block h-3.5 w-5 shrink-0 rounded-[3px] border border-l-4', className)} />
      {label}
    </li>
  );
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted" aria-label="Legend">
      {item(blockClass('confirmed'), KIND_LABELS.confirmed)}
      {item(blockClass('pending'), KIND_LABELS.pending)}
      {item(cn(blockClass('hold'), 'border-dashed'), KIND_LABELS.hold)}
      {item(blockClass('completed'), KIND_LABELS.completed)}
      {item(blockClass('muted'), KIND_LABELS.muted)}
      {item(TIME_OFF_CLASS, 'Time off')}
      {item('border-ok/40 bg-ok-soft', 'Free time (click to book)')}
      {item('border-border bg-[#e9ecf0]', 'Outside working hours')}
    </ul>
  );
}
