// What a booking's manage link (`/b/{token}`, server/domain/bookings/manage-link.ts) lets its holder
// do: see the booking (its service, times, state and payment, nothing else of it) and, while it is
// pending or confirmed and more than its service's cancel_notice_minutes before its start, cancel it
// (reason customer_cancelled) or move it to a free time (the reschedule of §15: atomic, 409
// slot_unavailable leaves it as it was). Anything later is 409 too_late_to_change. A link is found
// by its token's hash alone, and stops working 30 days after the booking's end.

import type { PAYMENT_STATUSES } from '@/server/client-safe/statuses';
import { db } from '@/server/db/client';
import type { Booking } from '@/server/db/generated/client';
import { cancelBooking } from '@/server/domain/bookings/cancel-booking';
import {
  looksLikeManageToken,
  manageLinkAlive,
  manageTokenHash,
  manageUrlOf,
} from '@/server/domain/bookings/manage-link';
import { rescheduleBooking } from '@/server/domain/bookings/reschedule-booking';
import { ACTIVE_BOOKING_STATES } from '@/server/domain/bookings/transition';
import type { OperationContext } from '@/server/domain/context';
import { AppError } from '@/server/lib/errors';
import { businessTimeZone } from './public-service';
import type { ManagedBooking } from './schemas';

type PaymentStatusName = (typeof PAYMENT_STATUSES)[number];

import { managedBookingPayment } from './sql/managed-booking-payment';

const MINUTE = 60_000;

export interface ManagedSubject {
  tenantId: string;
  booking: Booking;
}

/** The booking of a live manage token; null for anything else (unknown, malformed, expired). */
export async function findManagedBooking(token: string, now = Date.now()): Promise<ManagedSubject | null> {
  if (!looksLikeManageToken(token)) return null;
  const booking = await db().booking.findUnique({ where: { manageTokenHash: manageTokenHash(token) } });
  if (!booking || !manageLinkAlive(booking.endAt, now)) return null;
  return { tenantId: booking.tenantId, booking };
}

/** Until when the customer may still cancel or move it; null once its state allows neither. */
async function changeUntil(ctx: OperationContext, booking: Booking): Promise<Date | null> {
  if (!ACTIVE_BOOKING_STATES.includes(booking.status)) return null;
  const service = booking.serviceId
    ? await ctx.db.service.findUnique({
        where: { id: booking.serviceId },
        select: { cancelNoticeMinutes: true },
      })
    : null;
  return new Date(booking.startAt.getTime() - (service?.cancelNoticeMinutes ?? 0) * MINUTE);
}

const tooLate = (detail: string) => new AppError('too_late_to_change', detail);

/** 409 too_late_to_change unless the booking may still be changed now. */
async function assertChangeable(ctx: OperationContext, booking: Booking): Promise<void> {
  const until = await changeUntil(ctx, booking);
  if (!until) throw tooLate(`A ${booking.status} booking can no longer be changed`);
  if (Date.now() >= until.getTime()) {
    throw tooLate('It is too close to the start to change this booking here: contact the business');
  }
}

/** A state change that lost a race (it became final meanwhile) is too late as well. */
function lateWhenFinal(error: unknown): never {
  if (error instanceof AppError && error.code === 'invalid_transition') throw tooLate(error.message);
  throw error;
}

export async function presentManagedBooking(
  ctx: OperationContext,
  booking: Booking,
): Promise<ManagedBooking> {
  const [service, payment, until] = await Promise.all([
    booking.serviceId
      ? ctx.db.service.findUnique({
          where: { id: booking.serviceId },
          select: { id: true, name: true, resourceIds: true },
        })
      : null,
    managedBookingPayment.rows(ctx.db, ctx.tenantId, booking.id),
    changeUntil(ctx, booking),
  ]);
  const zoneOf = booking.resourceId ? [booking.resourceId] : (service?.resourceIds ?? []);
  const [paid] = payment;
  return {
    id: booking.id,
    status: booking.status,
    start_at: booking.startAt.toISOString(),
    end_at: booking.endAt.toISOString(),
    hold_expires_at: booking.holdExpiresAt?.toISOString() ?? null,
    service: {
      id: booking.serviceId,
      name: service?.name ?? booking.service,
      duration_minutes: Math.round((booking.endAt.getTime() - booking.startAt.getTime()) / MINUTE),
    },
    time_zone: await businessTimeZone(ctx, zoneOf),
    payment: paid
      ? {
          status: paid.status as PaymentStatusName,
          amount: paid.amount,
          currency: paid.currency,
          checkout_url: paid.status === 'pending' && booking.status === 'pending' ? paid.checkoutUrl : null,
        }
      : null,
    cancellation_reason: booking.cancellationReason,
    change_until: until?.toISOString() ?? null,
    can_change: until !== null && Date.now() < until.getTime(),
    manage_url: manageUrlOf(booking),
  };
}

async function reread(ctx: OperationContext, id: string): Promise<Booking> {
  return (await ctx.db.booking.findUnique({ where: { id } })) as Booking;
}

/** Cancels it for its customer (reason customer_cancelled); an unpaid checkout is withdrawn. */
export async function cancelManagedBooking(ctx: OperationContext, booking: Booking): Promise<ManagedBooking> {
  await assertChangeable(ctx, booking);
  await cancelBooking(ctx, { id: booking.id, reason: 'customer_cancelled' }).catch(lateWhenFinal);
  return presentManagedBooking(ctx, await reread(ctx, booking.id));
}

/** Moves it to `start_at` (a free time of its service; its own interval does not count). */
export async function rescheduleManagedBooking(
  ctx: OperationContext,
  booking: Booking,
  input: { start_at: string },
): Promise<ManagedBooking> {
  await assertChangeable(ctx, booking);
  if (!booking.serviceId) {
    throw new AppError(
      'invalid_transition',
      'This booking has no service to choose a time from: contact the business',
    );
  }
  await rescheduleBooking(ctx, { id: booking.id, start_at: input.start_at }).catch(lateWhenFinal);
  return presentManagedBooking(ctx, await reread(ctx, booking.id));
}
