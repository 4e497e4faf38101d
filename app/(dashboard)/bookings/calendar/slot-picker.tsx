'use client';
/**
 * Choosing a new time for a booking: a day (its own by default), a resource of its service, and that
 * day's free times from GET /slots with reschedule_booking_id (the booking's own interval does not
 * count against it, as in the reschedule itself), in the calendar's zone.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import { Button, ErrorNotice, Field, Input, Select, ToggleButton } from '@/app/_components/ui';
import { addDays, formatClock, formatDate, isPlainDate, localDateOf } from '@/app/_components/zoned-time';
import type { CalendarBooking, CalendarResource } from './time-grid';

export function SlotPicker({
  booking,
  zone,
  resources,
  pending,
  submitLabel,
  onPick,
}: {
  booking: CalendarBooking;
  zone: string;
  /** The resources of the booking's service. */
  resources: CalendarResource[];
  pending: boolean;
  submitLabel: string;
  onPick: (start: string, resourceId: string) => void;
}) {
  const trpc = useTRPC();
  const [date, setDate] = useState(() => localDateOf(Date.parse(booking.start_at), zone));
  const [resourceId, setResourceId] = useState(booking.resource_id ?? resources[0]?.id ?? '');
  const [chosen, setChosen] = useState<string | null>(null);
  const slots = useQuery({
    ...trpc.bookings.listSlots.queryOptions({
      service_id: booking.service_id ?? '',
      start: date,
      end: date,
      time_zone: zone,
      resource_id: resourceId,
      reschedule_booking_id: booking.id,
    }),
    enabled: Boolean(booking.service_id && resourceId),
  });
  const free = (slots.data?.days[date] ?? []).filter(
    (s) => s.start !== booking.start_at || resourceId !== booking.resource_id,
  );
  const stillFree = chosen !== null && free.some((s) => s.start === chosen);
  const day = (next: string) => {
    setDate(next);
    setChosen(null);
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-2">
        <Button variant="secondary" aria-label="Previous day" onClick={() => day(addDays(date, -1))}>
          ‹
        </Button>
        <Field label="Day" className="w-40">
          <Input
            type="date"
            value={date}
            onChange={(e) => isPlainDate(e.target.value) && day(e.target.value)}
          />
        </Field>
        <Button variant="secondary" aria-label="Next day" onClick={() => day(addDays(date, 1))}>
          ›
        </Button>
        {resources.length > 1 && (
          <Field label="Resource" className="min-w-40 flex-1">
            <Select
              value={resourceId}
              onChange={(e) => {
                setResourceId(e.target.value);
                setChosen(null);
              }}
            >
              {resources.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </Select>
          </Field>
        )}
      </div>
      {slots.isPending && booking.service_id ? (
        <Loading label="Finding free times…" />
      ) : slots.error ? (
        <ErrorNotice error={slots.error} />
      ) : free.length === 0 ? (
        <p className="text-sm text-muted">No free time on {formatDate(date)}: try another day.</p>
      ) : (
        <fieldset className="flex flex-wrap gap-1.5">
          <legend className="mb-1 text-sm text-muted">
            Free on {formatDate(date)} ({zone})
          </legend>
          {free.map((s) => (
            <ToggleButton
              key={s.start}
              pressed={chosen === s.start}
              onClick={() => setChosen(s.start)}
              className="min-h-10 tabular-nums"
            >
              {formatClock(s.start, zone)}
            </ToggleButton>
          ))}
        </fieldset>
      )}
      <div>
        <Button disabled={!stillFree} loading={pending} onClick={() => chosen && onPick(chosen, resourceId)}>
          {stillFree && chosen ? `${submitLabel} to ${formatClock(chosen, zone)}` : submitLabel}
        </Button>
      </div>
    </div>
  );
}
