import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { type BookingResource, presentBooking } from './serialize';
import { ACTIVE_BOOKING_STATES } from './transition';

/**
 * The customer says they will come (a reminder's quick reply on WhatsApp): a pending or confirmed
 * booking gains `attendance_confirmed_at` and emits booking.attendance_confirmed, once; saying it
 * again changes nothing (`changed: false`). Any other booking: 409 invalid_transition.
 */
export function confirmAttendance(
  ctx: OperationContext,
  input: { id: string },
): Promise<{ booking: BookingResource; changed: boolean }> {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const [row] = await db.booking.updateManyAndReturn({
      where: { id: input.id, status: { in: ACTIVE_BOOKING_STATES }, attendanceConfirmedAt: null },
      data: { attendanceConfirmedAt: new Date() },
    });
    if (row) {
      const booking = await presentBooking(db, row);
      await recordEvent(tx, {
        tenantId: ctx.tenantId,
        type: 'booking.attendance_confirmed',
        object: booking,
      });
      return { booking, changed: true };
    }
    const current = await db.booking.findUnique({ where: { id: input.id } });
    if (!current) throw Errors.notFound('Booking');
    if (!ACTIVE_BOOKING_STATES.includes(current.status))
      throw Errors.invalidTransition(`A ${current.status} booking cannot be attended`);
    return { booking: await presentBooking(db, current), changed: false };
  });
}
