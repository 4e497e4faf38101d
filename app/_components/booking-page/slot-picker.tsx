'use client';
/**
 * Days with free times, then the times of the chosen day, in the visitor's zone (detected, and
 * changeable here). A week at a time from today; the server groups the times by the visitor's dates,
 * so a week across a change of clock shows each day's real times.
 */
import { useEffect, useState } from 'react';
// The kit's parts one by one, not its index: the public page's bundle then holds only these.
import { Button } from '@/app/_components/ui/button';
import { cn } from '@/app/_components/ui/cn';
import { Field } from '@/app/_components/ui/field';
import { Notice } from '@/app/_components/ui/notice';
import { Select } from '@/app/_components/ui/select';
import { Spinner } from '@/app/_components/ui/spinner';
import { callPublic, type Slot, type SlotDays } from './public-api';
import { addDays, dayLabel, knownZones, offsetLabel, timeLabel, todayIn } from './visitor-time';

const WEEK = 7;

export function SlotPicker({
  slotsPath,
  zone,
  onZoneChange,
  selected,
  onSelect,
  refreshKey = 0,
}: {
  /** `/services/{id}/slots` or `/bookings/{token}/slots`. */
  slotsPath: string;
  zone: string;
  onZoneChange: (zone: string) => void;
  selected: Slot | null;
  onSelect: (slot: Slot | null) => void;
  /** Changing it fetches the times again (a time was just taken). */
  refreshKey?: number;
}) {
  const today = todayIn(zone);
  const [from, setFrom] = useState(today);
  const [day, setDay] = useState<string | null>(null);
  const [days, setDays] = useState<SlotDays['days'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [zones, setZones] = useState<string[]>([zone]);

  useEffect(() => setZones(knownZones(zone)), [zone]);

  // A new zone starts again from its own today.
  useEffect(() => {
    setFrom(todayIn(zone));
    setDay(null);
  }, [zone]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey fetches the times again on demand
  useEffect(() => {
    let live = true;
    setDays(null);
    setError(null);
    const query = new URLSearchParams({ start: from, end: addDays(from, WEEK - 1), time_zone: zone });
    void callPublic<SlotDays>('GET', `${slotsPath}?${query}`).then((answer) => {
      if (!live) return;
      if (!answer.ok) {
        setError(answer.problem.message);
        return;
      }
      setDays(answer.body.days);
      setDay((current) =>
        current && answer.body.days[current]?.length
          ? current
          : (Object.keys(answer.body.days).find((d) => answer.body.days[d].length > 0) ?? null),
      );
    });
    return () => {
      live = false;
    };
  }, [slotsPath, from, zone, refreshKey]);

  const times = day && days ? (days[day] ?? []) : [];
  // The clock of the time chosen, or of the day shown: a week may cross a change of clock.
  const offsetAt = Date.parse(selected?.start ?? times[0]?.start ?? '') || undefined;
  const anyFree = days ? Object.values(days).some((list) => list.length > 0) : false;

  return (
    <div className="flex flex-col gap-4">
      <Field label="Time zone" hint={`Times are shown in ${zone} (${offsetLabel(zone, offsetAt)})`}>
        <Select value={zone} onChange={(e) => onZoneChange(e.target.value)}>
          {zones.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </Select>
      </Field>

      <div className="flex items-center justify-between gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={from <= today}
          onClick={() => {
            setFrom(addDays(from, -WEEK) < today ? today : addDays(from, -WEEK));
            setDay(null);
          }}
        >
          ← Earlier
        </Button>
        <span className="text-sm font-semibold" aria-live="polite">
          {dayLabel(from)} – {dayLabel(addDays(from, WEEK - 1))}
        </span>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            setFrom(addDays(from, WEEK));
            setDay(null);
          }}
        >
          Later →
        </Button>
      </div>

      {error && (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      )}
      {!days && !error && (
        <div className="flex items-center gap-2 text-sm text-muted">
          <Spinner /> Finding free times…
        </div>
      )}
      {days && (
        <fieldset>
          <legend className="mb-2 text-sm font-semibold">Day</legend>
          <div className="grid grid-cols-4 gap-2 sm:grid-cols-7">
            {Object.entries(days).map(([date, list]) => (
              <button
                key={date}
                type="button"
                disabled={list.length === 0}
                aria-pressed={date === day}
                onClick={() => {
                  setDay(date);
                  onSelect(null);
                }}
                className={cn(
                  'flex min-h-11 flex-col items-center justify-center rounded-control border px-1 py-1.5 text-sm',
                  'cursor-pointer disabled:cursor-not-allowed disabled:border-border disabled:bg-subtle disabled:text-muted',
                  date === day
                    ? 'border-accent bg-accent text-accent-fg'
                    : 'border-border bg-panel hover:bg-subtle',
                )}
              >
                <span className="font-semibold">{dayLabel(date)}</span>
                <span className="text-xs">{list.length === 0 ? 'full' : `${list.length} free`}</span>
              </button>
            ))}
          </div>
          {!anyFree && <p className="mt-2 text-sm text-muted">No free times this week: try later dates.</p>}
        </fieldset>
      )}

      {day && times.length > 0 && (
        <fieldset>
          <legend className="mb-2 text-sm font-semibold">Time on {dayLabel(day)}</legend>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-6">
            {times.map((slot) => (
              <button
                key={slot.start}
                type="button"
                aria-pressed={selected?.start === slot.start}
                onClick={() => onSelect(slot)}
                className={cn(
                  'min-h-11 rounded-control border px-2 py-2 text-sm font-medium tabular-nums cursor-pointer',
                  selected?.start === slot.start
                    ? 'border-accent bg-accent text-accent-fg'
                    : 'border-border bg-panel hover:bg-subtle',
                )}
              >
                {timeLabel(slot.start, zone)}
              </button>
            ))}
          </div>
        </fieldset>
      )}
    </div>
  );
}
