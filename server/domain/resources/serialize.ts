import type { Resource, TimeOff } from '@/server/db/generated/client';
import type { WeeklyHours } from '@/server/domain/availability/engine';
import { WEEKDAYS } from '@/server/domain/availability/time-zones';

/** A resource as the REST API shows it (never its calendar token). */
export function serializeResource(r: Resource) {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    time_zone: r.timeZone,
    weekly_hours: weeklyHoursOf(r),
    is_active: r.isActive,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** The stored weekly hours, every weekday present. */
export function weeklyHoursOf(r: Pick<Resource, 'weeklyHours'>): WeeklyHours {
  const stored = (r.weeklyHours ?? {}) as Partial<WeeklyHours>;
  return Object.fromEntries(WEEKDAYS.map((d) => [d, stored[d] ?? []])) as WeeklyHours;
}

export function serializeTimeOff(t: TimeOff) {
  return {
    id: t.id,
    resource_id: t.resourceId,
    start_at: t.startAt.toISOString(),
    end_at: t.endAt.toISOString(),
    reason: t.reason,
    created_at: t.createdAt.toISOString(),
  };
}

export type ResourceResource = ReturnType<typeof serializeResource>;
