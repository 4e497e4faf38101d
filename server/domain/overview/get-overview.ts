// The dashboard's home for admins: the tenant's attempts in the last 24 h by hour, endpoints that
// are failing or disabled, the hand-off queue and today's bookings, in one call.
import type { z } from 'zod';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { tenantDeliveryStats } from '@/server/webhooks';
import type { OverviewInput } from './schemas';
import { endpointsNeedingAttention as endpointsNeedingAttentionSql } from './sql/endpoints-needing-attention';

/** How many of an endpoint's newest failures are counted (the overview shows "50+" beyond). */
export const STREAK_LIMIT = 50;

/**
 * Endpoints whose newest attempt failed, and disabled ones, with their streak of consecutive failed
 * attempts (up to STREAK_LIMIT) and their last success (./sql/endpoints-needing-attention.sql).
 */
export async function endpointsNeedingAttention(ctx: OperationContext) {
  const rows = await endpointsNeedingAttentionSql.rows(ctx.db, ctx.tenantId, STREAK_LIMIT);
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
