import { z } from 'zod';
import { weeklyHoursProblems } from '@/server/domain/availability/engine';
import { canonicalTimeZone, WEEKDAYS } from '@/server/domain/availability/time-zones';
import { Timestamp } from '@/server/lib/schemas';

export const ResourceKind = z.enum(['staff', 'room', 'equipment']);

const clock = (allow24: boolean) =>
  z
    .string()
    .regex(
      allow24 ? /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/ : /^([01]\d|2[0-3]):[0-5]\d$/,
      allow24 ? 'A time "HH:MM" (00:00–24:00)' : 'A time "HH:MM" (00:00–23:59)',
    );

export const TimeRange = z.object({
  start: clock(false).meta({ example: '09:00' }),
  end: clock(true).meta({ example: '17:00', description: '"24:00" ends the day at midnight' }),
});

export const WeeklyHours = z
  .object(
    Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(TimeRange).max(12).default([])])) as Record<
      (typeof WEEKDAYS)[number],
      z.ZodDefault<z.ZodArray<typeof TimeRange>>
    >,
  )
  .meta({
    description:
      'Working hours per weekday, local times in the resource’s time_zone; a day left out or [] is not worked. ' +
      'Intervals of one day must not overlap (they may touch).',
    example: {
      mon: [
        { start: '09:00', end: '13:00' },
        { start: '14:00', end: '18:00' },
      ],
      sat: [],
      sun: [],
    },
  });

const TimeZone = z
  .string()
  .max(64)
  .meta({ description: 'An IANA time zone, e.g. Europe/Madrid (unknown → 422)', example: 'Europe/Madrid' });

export const Resource = z.object({
  id: z.string().meta({ example: 'res_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  name: z.string(),
  kind: ResourceKind,
  time_zone: z.string().meta({ example: 'Europe/Madrid' }),
  weekly_hours: z.record(z.string(), z.array(z.object({ start: z.string(), end: z.string() }))),
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const checkZone = (value: { time_zone?: string }, ctx: z.RefinementCtx) => {
  if (value.time_zone !== undefined && !canonicalTimeZone(value.time_zone)) {
    ctx.addIssue({ code: 'custom', path: ['time_zone'], message: 'Unknown IANA time zone' });
  }
};
const checkHours = (value: { weekly_hours?: z.output<typeof WeeklyHours> }, ctx: z.RefinementCtx) => {
  if (!value.weekly_hours) return;
  for (const problem of weeklyHoursProblems(value.weekly_hours)) {
    ctx.addIssue({
      code: 'custom',
      // Indexes as numbers, so the error's path reads `weekly_hours.mon[1]` like every other field error.
      path: problem.path
        .split(/[.[\]]+/)
        .filter(Boolean)
        .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)),
      message: problem.message,
    });
  }
};

const name = z.string().trim().min(1).max(200);

export const CreateResourceInput = z
  .object({
    name,
    kind: ResourceKind.default('staff'),
    time_zone: TimeZone,
    weekly_hours: WeeklyHours,
    is_active: z.boolean().default(true),
  })
  .superRefine(checkZone)
  .superRefine(checkHours);

export const UpdateResourceInput = z
  .object({
    name: name.optional(),
    kind: ResourceKind.optional(),
    time_zone: TimeZone.optional(),
    weekly_hours: WeeklyHours.optional(),
    is_active: z.boolean().optional(),
  })
  .superRefine(checkZone)
  .superRefine(checkHours);

const when = z.iso.datetime({ offset: true }).meta({ description: 'RFC 3339 timestamp' });

export const TimeOff = z.object({
  id: z.string().meta({ example: 'tof_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  resource_id: z.string(),
  start_at: Timestamp,
  end_at: Timestamp,
  reason: z.string().nullable(),
  created_at: Timestamp,
});

export const CreateTimeOffInput = z
  .object({
    start_at: when,
    end_at: when,
    reason: z.string().trim().min(1).max(500).optional().nullable(),
  })
  .refine((b) => Date.parse(b.end_at) > Date.parse(b.start_at), {
    path: ['end_at'],
    message: 'Must be after start_at',
  });

export const TimeOffListQuery = z.object({
  from: when.optional().meta({ description: 'Time off ending after this time' }),
  to: when.optional().meta({ description: 'Time off starting before this time' }),
});

export const ScheduleQuery = z
  .object({
    from: when.optional().meta({ description: 'Start of the window (inclusive; default: now)' }),
    to: when.optional().meta({
      description: 'End of the window (exclusive; default: 7 days after from); at most 62 days after from',
    }),
  })
  .transform((q) => {
    const from = q.from ?? new Date().toISOString();
    return { from, to: q.to ?? new Date(Date.parse(from) + 7 * 86_400_000).toISOString() };
  })
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), { path: ['to'], message: 'Must be after from' })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 62 * 86_400_000, {
    path: ['to'],
    message: 'At most 62 days after from',
  });

export const WorkingInterval = z
  .object({
    start: Timestamp,
    end: Timestamp,
  })
  .meta({
    id: 'WorkingInterval',
    description: 'A stretch of working hours as UTC instants (end exclusive)',
    example: { start: '2027-03-01T08:00:00.000Z', end: '2027-03-01T16:00:00.000Z' },
  });

export const CalendarFeed = z.object({
  calendar_url: z.string().meta({
    description:
      'The private iCalendar feed of this resource (subscribe to it in Google Calendar or Apple Calendar). ' +
      'Anyone with the URL can read the resource’s bookings: rotate it if it leaked.',
    example:
      'https://switchboard.example/api/v1/resources/res_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q/calendar.ics?token=…',
  }),
});

export type CreateResourceInput = z.output<typeof CreateResourceInput>;
export type UpdateResourceInput = z.output<typeof UpdateResourceInput>;
