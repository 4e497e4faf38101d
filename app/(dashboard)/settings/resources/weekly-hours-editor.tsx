'use client';
/**
 * A resource's weekly hours, per weekday: any number of intervals a day ("HH:MM"–"HH:MM", local
 * times in the resource's zone; an end of "24:00" runs to midnight), added and removed one by one,
 * with a shortcut to copy Monday to the other weekdays. The server checks them (format, end after
 * start, no overlap within a day) and its field errors (`weekly_hours.mon[1]`, `…[1].end`) show at the
 * interval they name.
 */
import { Button, Input } from '@/app/_components/ui';
import { WEEKDAYS, type Weekday } from '@/app/_components/zoned-time';

export interface TimeRange {
  start: string;
  end: string;
}
export type WeeklyHours = Record<Weekday, TimeRange[]>;

const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export function emptyWeek(): WeeklyHours {
  return Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as WeeklyHours;
}

/** Monday to Friday 09:00–17:00: where a new resource starts. */
export function officeHours(): WeeklyHours {
  const week = emptyWeek();
  for (const d of ['mon', 'tue', 'wed', 'thu', 'fri'] as const) week[d] = [{ start: '09:00', end: '17:00' }];
  return week;
}

/** Every weekday present, as the API answers it. */
export function weekFrom(stored: Record<string, TimeRange[]>): WeeklyHours {
  const week = emptyWeek();
  for (const d of WEEKDAYS) week[d] = (stored[d] ?? []).map((r) => ({ ...r }));
  return week;
}

/** "Mon–Fri 09:00–17:00"-style summary for a table. */
export function summarizeWeek(week: Record<string, TimeRange[]>): string {
  const parts: string[] = [];
  let i = 0;
  while (i < WEEKDAYS.length) {
    const ranges = week[WEEKDAYS[i]] ?? [];
    const text = ranges.map((r) => `${r.start}–${r.end}`).join(', ');
    let j = i;
    while (
      j + 1 < WEEKDAYS.length &&
      (week[WEEKDAYS[j + 1]] ?? []).map((r) => `${r.start}–${r.end}`).join(', ') === text
    )
      j++;
    if (text) {
      const name = (d: Weekday) => DAY_NAMES[d].slice(0, 3);
      parts.push(`${i === j ? name(WEEKDAYS[i]) : `${name(WEEKDAYS[i])}–${name(WEEKDAYS[j])}`} ${text}`);
    }
    i = j + 1;
  }
  return parts.join('; ') || 'No working hours';
}

export function WeeklyHoursEditor({
  value,
  onChange,
  errorAt,
  disabled = false,
}: {
  value: WeeklyHours;
  onChange: (next: WeeklyHours) => void;
  /** The server's field error at a path such as `weekly_hours.mon[1]` or `weekly_hours.mon[1].end`. */
  errorAt: (path: string) => string | undefined;
  disabled?: boolean;
}) {
  const setDay = (day: Weekday, ranges: TimeRange[]) => onChange({ ...value, [day]: ranges });
  return (
    <fieldset className="flex min-w-0 flex-col gap-1" aria-describedby="weekly-hours-hint">
      <legend className="text-sm font-semibold">Weekly hours</legend>
      <p id="weekly-hours-hint" className="mb-1 text-xs text-muted">
        Local times in the resource’s time zone, 24-hour “HH:MM”; an end of 24:00 runs to midnight. Intervals
        of one day must not overlap (they may touch). A day without intervals is not worked.
      </p>
      <div className="flex flex-col divide-y divide-border rounded-control border border-border">
        {WEEKDAYS.map((day) => {
          const ranges = value[day];
          const dayError = errorAt(`weekly_hours.${day}`);
          return (
            <div
              key={day}
              className="flex flex-col gap-2 p-2.5 sm:flex-row sm:items-start"
              data-testid={`hours-${day}`}
            >
              <div className="w-28 shrink-0 pt-1.5 text-sm font-semibold">{DAY_NAMES[day]}</div>
              <div className="flex min-w-0 flex-1 flex-col gap-2">
                {ranges.length === 0 && <p className="pt-1.5 text-sm text-muted">Not worked</p>}
                {ranges.map((range, i) => {
                  const at = `weekly_hours.${day}[${i}]`;
                  const error = [errorAt(at), errorAt(`${at}.start`), errorAt(`${at}.end`)]
                    .filter(Boolean)
                    .join('; ');
                  const update = (patch: Partial<TimeRange>) =>
                    setDay(
                      day,
                      ranges.map((r, k) => (k === i ? { ...r, ...patch } : r)),
                    );
                  return (
                    // biome-ignore lint/suspicious/noArrayIndexKey: intervals have no identity but their place
                    <div key={i} className="flex flex-col gap-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <div className="w-20">
                          <Input
                            aria-label={`${DAY_NAMES[day]} interval ${i + 1} start`}
                            value={range.start}
                            onChange={(e) => update({ start: e.target.value })}
                            placeholder="09:00"
                            inputMode="numeric"
                            maxLength={5}
                            disabled={disabled}
                            aria-invalid={Boolean(errorAt(at) || errorAt(`${at}.start`)) || undefined}
                            className="text-center tabular-nums"
                          />
                        </div>
                        <span aria-hidden="true">–</span>
                        <div className="w-20">
                          <Input
                            aria-label={`${DAY_NAMES[day]} interval ${i + 1} end`}
                            value={range.end}
                            onChange={(e) => update({ end: e.target.value })}
                            placeholder="17:00"
                            inputMode="numeric"
                            maxLength={5}
                            disabled={disabled}
                            aria-invalid={Boolean(errorAt(at) || errorAt(`${at}.end`)) || undefined}
                            className="text-center tabular-nums"
                          />
                        </div>
                        {!disabled && (
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Remove ${DAY_NAMES[day]} interval ${i + 1}`}
                            onClick={() =>
                              setDay(
                                day,
                                ranges.filter((_, k) => k !== i),
                              )
                            }
                          >
                            Remove
                          </Button>
                        )}
                      </div>
                      {error && (
                        <p className="text-sm font-medium text-error" role="alert">
                          {error}
                        </p>
                      )}
                    </div>
                  );
                })}
                {dayError && <p className="text-sm font-medium text-error">{dayError}</p>}
                {!disabled && (
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`Add interval on ${DAY_NAMES[day]}`}
                      onClick={() => {
                        const last = ranges[ranges.length - 1];
                        setDay(day, [
                          ...ranges,
                          last
                            ? { start: last.end === '24:00' ? '23:00' : last.end, end: '24:00' }
                            : { start: '09:00', end: '17:00' },
                        ]);
                      }}
                    >
                      Add interval
                    </Button>
                    {day === 'mon' && (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => {
                          const next = { ...value };
                          for (const d of ['tue', 'wed', 'thu', 'fri'] as const)
                            next[d] = ranges.map((r) => ({ ...r }));
                          onChange(next);
                        }}
                      >
                        Copy to Tuesday–Friday
                      </Button>
                    )}
                  </div>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
