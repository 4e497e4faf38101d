// The dashboard's home for admins: the tenant's attempts in the last 24 h by hour, endpoints that
// are failing or disabled, the hand-off queue and today's bookings, in one call.
import type { z } from 'zod';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { tenantDeliveryStats } from '@/server/webhooks';
import type { OverviewInput } from './schemas';

/** How many of an endpoint's newest failures are counted (the overview shows "50+" beyond). */
export const STREAK_LIMIT = 50;

interface EndpointHealthRow {
  id: string;
  url: string;
  is_active: boolean;
  disabled_reason: string | null;
  last_attempt_at: Date | null;
  last_success_at: Date | null;
  failures: number;
}

/**
 * Endpoints whose newest attempt failed, and disabled ones, with their streak of consecutive failed
 * attempts (up to STREAK_LIMIT) and their last success. Each lateral reads the attempts index of
 * one endpoint backwards from its newest attempt.
 */
export async function endpointsNeedingAttention(ctx: OperationContext) {
  const { db, tenantId } = ctx;
  // Raw SQL is not tenant-scoped by the extension: the tenant filter is explicit here.
  const rows = await db.$queryRaw<EndpointHealthRow[]>`
    select e.id, e.url, e.is_active,
      e.disabled_reason::text as disabled_reason,
      newest.started_at as last_attempt_at, success.started_at as last_success_at,
      coalesce(streak.failures, 0)::int as failures
    from webhook_endpoints e
    left join lateral (
      select a.started_at, a.succeeded from delivery_attempts a
      where a.tenant_id = e.tenant_id and a.endpoint_id = e.id
      order by a.started_at desc limit 1
    ) newest on true
    left join lateral (
      select a.started_at from delivery_attempts a
      where a.tenant_id = e.tenant_id and a.endpoint_id = e.id and a.succeeded
      order by a.started_at desc limit 1
    ) success on true
    left join lateral (
      select count(*) as failures from (
        select 1 from delivery_attempts a
        where a.tenant_id = e.tenant_id and a.endpoint_id = e.id
          and a.started_at > coalesce(success.started_at, '-infinity'::timestamptz)
        order by a.started_at desc limit ${STREAK_LIMIT}
      ) recent
    ) streak on true
    where e.tenant_id = ${tenantId}::uuid and (not e.is_active or newest.succeeded = false)
    order by e.is_active desc, newest.started_at desc nulls last
    limit 20`;
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    state: row.is_active ? ('failing' as const) : ('disabled' as const),
    disabled_reason: row.disabled_reason,
    consecutive_failures: row.failures,
    /** The streak was counted up to STREAK_LIMIT: it may be longer. */
    streak_capped: row.failures >= STREAK_LIMIT,
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
    last_success_at: row.last_success_at?.toISOString() ?? null,
  }));
}

export async function getOverview(ctx: OperationContext, input: z.output<typeof OverviewInput>) {
  const { db } = ctx;
  const dayStart = new Date(input.dayStart);
  const dayEnd = new Date(input.dayEnd);
  if (dayEnd <= dayStart) throw Errors.validation([{ path: 'dayEnd', message: 'Must be after dayStart' }]);
  const todays = { startAt: { gte: dayStart, lt: dayEnd }, status: { not: 'cancelled' as const } };
  const [deliveries, endpoints, handoffQueue, bookingsToday, nextBookings] = await Promise.all([
    tenantDeliveryStats(ctx, {}),
    endpointsNeedingAttention(ctx),
    db.conversation.count({ where: { status: 'pending_human' } }),
    db.booking.count({ where: todays }),
    db.booking.findMany({
      where: { ...todays, startAt: { gte: new Date(Math.max(Date.now(), +dayStart)), lt: dayEnd } },
      orderBy: { startAt: 'asc' },
      take: 5,
      select: { id: true, customerName: true, service: true, startAt: true, status: true },
    }),
  ]);
  return {
    deliveries,
    endpoints,
    handoff_queue: handoffQueue,
    bookings_today: bookingsToday,
    next_bookings: nextBookings.map((b) => ({
      id: b.id,
      customer_name: b.customerName,
      service: b.service,
      start_at: b.startAt.toISOString(),
      status: b.status,
    })),
  };
}
export type Overview = Awaited<ReturnType<typeof getOverview>>;
