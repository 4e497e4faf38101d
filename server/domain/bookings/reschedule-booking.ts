import type { Booking } from '@/server/db/generated/client';
import { transaction } from '@/server/db/unit-of-work';
import { reachableBookings } from '@/server/domain/assistant-sessions/customer-scope';
import { recordToolCall } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { AppError, Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { syncBookingTimers } from './booking-timers';
import {
  activeService,
  blockedInterval,
  type Candidate,
  firstThatCommits,
  freeInOrder,
  loadCandidates,
  lockResource,
  PLACEMENT_TX,
  refusalFor,
  slotUnavailable,
} from './placement';
import { type BookingResource, presentBooking } from './serialize';
import { ACTIVE_BOOKING_STATES } from './transition';

/**
 * Moves a pending or confirmed booking (409 invalid_transition for any other) to `start_at`, with the
 * same checks as a new booking, its own interval not counting against it. A service booking keeps its
 * resource when that one is free (or moves to `resource_id`), else it is placed like a new booking;
 * 409 slot_unavailable leaves it untouched. A free-form booking keeps its duration. Emits
 * booking.rescheduled with `previous {start_at, end_at, resource_id}` and re-plans reminders for the
 * new time (the old time's never fire).
 */
export async function rescheduleBooking(
  ctx: OperationContext,
  input: { id: string; start_at: string; resource_id?: string },
): Promise<BookingResource> {
  const { db } = ctx;
  // Under an assistant session only the contact's bookings can be found (`reachableBookings`).
  const current = await db.booking.findFirst({ where: { id: input.id, AND: [reachableBookings(ctx)] } });
  if (!current) throw Errors.notFound('Booking');
  if (!ACTIVE_BOOKING_STATES.includes(current.status)) {
    throw Errors.invalidTransition(`A ${current.status} booking cannot be rescheduled`);
  }
  const start = Date.parse(input.start_at);
  if (!current.serviceId) {
    if (input.resource_id)
      throw Errors.validation([{ path: 'resource_id', message: 'Only for a booking of a service' }]);
    const duration = current.endAt.getTime() - current.startAt.getTime();
    return move(ctx, current, { startAt: new Date(start), endAt: new Date(start + duration) });
  }
  const service = await activeService(db, current.serviceId).catch(async (error) => {
    // A deleted or paused service: the booking can still move, with the service's rules as they were.
    if (error instanceof AppError && error.code === 'validation_failed') {
      throw Errors.invalidTransition('The booking’s service is no longer active: it cannot be rescheduled');
    }
    throw error;
  });
  const candidates = await loadCandidates(db, {
    service,
    start,
    resourceId: input.resource_id,
    excludeBookingId: current.id,
  });
  const now = Date.now();
  const { free, reasons } = freeInOrder(service, candidates, start, now);
  // Its own resource first when free, then the others as a new booking would take them.
  const ordered: Candidate[] = [
    ...free.filter((c) => c.resource.id === current.resourceId),
    ...free.filter((c) => c.resource.id !== current.resourceId),
  ];
  if (ordered.length === 0) throw refusalFor(reasons);
  const moved = await firstThatCommits(ordered, (candidate) =>
    move(ctx, current, { ...blockedInterval(service, start), resourceId: candidate.resource.id }),
  );
  if (moved) return moved;
  throw slotUnavailable('Every free resource of the service was taken at that time by a concurrent booking');
}

/** One write, guarded on what was read (a concurrent change makes it match nothing: 409). */
async function move(
  ctx: OperationContext,
  current: Booking,
  to: { startAt: Date; endAt: Date; blockedFrom?: Date; blockedUntil?: Date; resourceId?: string },
): Promise<BookingResource> {
  const timesMove =
    to.startAt.getTime() !== current.startAt.getTime() || to.endAt.getTime() !== current.endAt.getTime();
  return transaction(
    ctx,
    async (tx) => {
      const db = await tx.orm();
      if (to.resourceId) await lockResource(tx, to.resourceId);
      const [row] = await db.booking.updateManyAndReturn({
        where: {
          id: current.id,
          status: { in: ACTIVE_BOOKING_STATES },
          startAt: current.startAt,
          endAt: current.endAt,
          resourceId: current.resourceId,
          // Still the customer it was read as: a session's check above holds for the write too.
          customerPhone: current.customerPhone,
        },
        // The feed's SEQUENCE rises in the same statement that moves the times (RFC 5545 §3.8.7.4).
        data: { ...to, ...(timesMove ? { sequence: { increment: 1 } } : {}) },
      });
      if (!row)
        throw new AppError(
          'concurrent_update',
          'The booking changed while it was being moved; retry the request',
        );
      const object = await presentBooking(db, row);
      const changed =
        row.startAt.getTime() !== current.startAt.getTime() ||
        row.endAt.getTime() !== current.endAt.getTime() ||
        row.resourceId !== current.resourceId;
      await syncBookingTimers(tx, row);
      if (changed) {
        await recordEvent(tx, {
          tenantId: ctx.tenantId,
          type: 'booking.rescheduled',
          object,
          previous: {
            start_at: current.startAt.toISOString(),
            end_at: current.endAt.toISOString(),
            resource_id: current.resourceId,
          },
        });
      }
      await recordToolCall(tx, ctx, { type: 'booking', id: row.id });
      return object;
    },
    PLACEMENT_TX,
  );
}
