import { Prisma } from '@/server/db/generated/client';
import { transaction } from '@/server/db/unit-of-work';
import type { UpdateBookingInput } from '@/server/domain/bookings/schemas';
import type { OperationContext } from '@/server/domain/context';
import { AppError, Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { syncBookingTimers } from './booking-timers';
import { rescheduleBooking } from './reschedule-booking';
import { presentBooking } from './serialize';
import { FINAL_BOOKING_STATES } from './transition';

const ATTEMPTS = 3;

/**
 * Partial update of an open (pending or confirmed) booking. A change of start_at or end_at emits
 * booking.rescheduled with the old times in `previous`; other field changes emit nothing (the
 * catalog has no generic update event). A cancelled or completed booking answers 409.
 */
export async function updateBooking(
  ctx: OperationContext,
  input: { id: string; changes: UpdateBookingInput },
) {
  const { db, tenantId } = ctx;
  let { changes } = input;
  // A booking of a service moves by the reschedule rule (checked, placed, atomic); its end follows.
  const target = await db.booking.findUnique({
    where: { id: input.id },
    select: { serviceId: true, startAt: true, status: true },
  });
  if (target?.serviceId && !FINAL_BOOKING_STATES.includes(target.status)) {
    if (changes.end_at !== undefined) {
      throw Errors.validation([
        { path: 'end_at', message: 'Follows from the service duration: change start_at' },
      ]);
    }
    if (changes.start_at !== undefined) {
      if (Date.parse(changes.start_at) !== target.startAt.getTime()) {
        await rescheduleBooking(ctx, { id: input.id, start_at: changes.start_at });
      }
      const { start_at: _moved, ...rest } = changes;
      changes = rest;
    }
  }
  for (let attempt = 1; ; attempt++) {
    const outcome = await transaction(ctx, async (tx) => {
      const db = await tx.orm();
      const current = await db.booking.findUnique({ where: { id: input.id } });
      if (!current) throw Errors.notFound('Booking');
      if (FINAL_BOOKING_STATES.includes(current.status)) {
        throw Errors.invalidTransition(`A ${current.status} booking can no longer be changed`);
      }
      const startAt = changes.start_at ? new Date(changes.start_at) : current.startAt;
      const endAt = changes.end_at ? new Date(changes.end_at) : current.endAt;
      if (endAt.getTime() <= startAt.getTime()) {
        throw Errors.validation([
          { path: changes.end_at ? 'end_at' : 'start_at', message: 'end_at must be after start_at' },
        ]);
      }
      const rescheduled =
        startAt.getTime() !== current.startAt.getTime() || endAt.getTime() !== current.endAt.getTime();
      // Guarded on what we read: a concurrent transition or reschedule makes this match nothing,
      // so `previous` is always the times this change replaced.
      const [row] = await db.booking.updateManyAndReturn({
        where: { id: input.id, status: current.status, startAt: current.startAt, endAt: current.endAt },
        data: {
          startAt,
          endAt,
          // The calendar feed's SEQUENCE (RFC 5545 §3.8.7.4) rises with the move, in this statement.
          ...(rescheduled ? { sequence: { increment: 1 } } : {}),
          ...(changes.customer?.name !== undefined ? { customerName: changes.customer.name } : {}),
          ...(changes.customer?.email !== undefined ? { customerEmail: changes.customer.email } : {}),
          ...(changes.customer?.phone !== undefined ? { customerPhone: changes.customer.phone } : {}),
          ...(changes.service !== undefined ? { service: changes.service } : {}),
          ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
          ...(changes.metadata !== undefined
            ? {
                metadata:
                  changes.metadata === null ? Prisma.DbNull : (changes.metadata as Prisma.InputJsonValue),
              }
            : {}),
        },
      });
      if (!row) return null;
      await syncBookingTimers(tx, row); // a phone added or removed changes the reminders
      const object = await presentBooking(db, row);
      if (rescheduled) {
        await recordEvent(tx, {
          tenantId,
          type: 'booking.rescheduled',
          object,
          previous: {
            start_at: current.startAt.toISOString(),
            end_at: current.endAt.toISOString(),
            resource_id: current.resourceId,
          },
        });
      }
      return object;
    });
    if (outcome) return outcome;
    if (attempt >= ATTEMPTS) {
      throw new AppError('concurrent_update', 'The booking changed while this update ran; retry the request');
    }
  }
}
