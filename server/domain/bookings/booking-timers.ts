// The timers a booking needs in its current state, planned in the transaction of every change to it
// (server/timers/plan.ts): a pending booking with a hold expires at hold_expires_at; a confirmed
// booking whose customer has a phone gets each reminder of its service `before_minutes` before its
// start. A reminder already due when planned is not planned (so it is never sent late), and any other
// state has no timers: a cancelled or moved booking never fires for its old time.
import type { Booking } from '@/server/db/generated/client';
import type { UnitOfWork } from '@/server/db/unit-of-work';
import { remindersOf } from '@/server/domain/services/serialize';
import { planTimers, type TimerPlan } from '@/server/timers/plan';
import { serviceReminders } from './sql/service-reminders';

/** The columns of a booking its timers depend on. */
type TimedBooking = Pick<
  Booking,
  'id' | 'tenantId' | 'status' | 'holdExpiresAt' | 'customerPhone' | 'serviceId' | 'startAt'
>;

/** In the unit of work of the change. */
export async function syncBookingTimers(
  tx: UnitOfWork,
  booking: TimedBooking,
  service?: { id: string; reminders: unknown } | null,
  options: { created?: boolean; now?: Date } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  const plans: TimerPlan[] = [];
  if (booking.status === 'pending' && booking.holdExpiresAt) {
    plans.push({ kind: 'booking.hold', dueAt: booking.holdExpiresAt });
  }
  if (booking.status === 'confirmed' && booking.customerPhone && booking.serviceId) {
    const svc =
      service !== undefined && service?.id === booking.serviceId
        ? service
        : (await serviceReminders.rows(tx, booking.tenantId, booking.serviceId))[0];
    remindersOf(svc ?? { reminders: [] }).forEach((reminder, i) => {
      const dueAt = new Date(booking.startAt.getTime() - reminder.before_minutes * 60_000);
      if (dueAt > now) plans.push({ kind: 'booking.reminder', key: String(i), dueAt });
    });
  }
  await planTimers(tx, {
    subjectId: booking.id,
    kinds: ['booking.hold', 'booking.reminder'],
    plans,
    newSubject: options.created,
  });
}
