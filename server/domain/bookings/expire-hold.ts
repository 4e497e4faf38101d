// A hold that ran out (its timer, server/timers): pending → expired, freeing the slot, with
// booking.expired; in the transaction that marks the timer fired, so it happens once.
import { forTenant } from '@/server/db/tenant-scope';
import { type DueTimer, markFired } from '@/server/timers/plan';
import { transitionIn } from './transition';

export async function expireHeldBooking(timer: DueTimer): Promise<'expired' | 'nothing' | 'stale'> {
  return forTenant(timer.tenantId).$transaction(async (tx) => {
    if (!(await markFired(tx, timer))) return 'stale';
    const current = await tx.booking.findUnique({
      where: { id: timer.subjectId },
      select: { status: true, holdExpiresAt: true },
    });
    if (current?.status !== 'pending' || !current.holdExpiresAt || current.holdExpiresAt > new Date())
      return 'nothing';
    await transitionIn(tx, timer.tenantId, {
      id: timer.subjectId,
      to: 'expired',
      event: 'booking.expired',
      when: { holdExpiresAt: { lte: new Date() } },
    });
    return 'expired';
  });
}
