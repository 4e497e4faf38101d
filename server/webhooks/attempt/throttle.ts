// Per-endpoint throttle (an endpoint's `rate_limit_per_second`, docs/operations.md "Webhook operations"), one mechanism for both engines. The
// endpoint row keeps the times of its last r let-through attempts (`throttle_grants`, oldest first).
// An attempt is let through only if fewer than r were let through in the last THROTTLE_WINDOW_MS
// (one second plus a margin), atomically, in one statement under the row's lock; otherwise it is told
// when the oldest of those leaves the window, and nothing is sent or recorded (the worker reschedules
// the delivery to then, the Inngest function sleeps until then). Slots are taken at send time, never
// reserved ahead, so deliveries that wake late cannot bunch up into one second.
import type { OperationContext } from '@/server/domain/context';
import { takeThrottleSlot as takeThrottleSlotSql } from './sql/take-throttle-slot';

/**
 * The window r attempts must fit in: one second plus 100 ms, so that the time from taking the slot to
 * the request reaching the receiver (signing, connecting; longer on a busy machine) may vary by up to
 * 100 ms between two attempts and r + 1 of them still never arrive within one second.
 */
export const THROTTLE_WINDOW_MS = 1_100;

/**
 * How soon after asking for its slot an attempt must be sending. Later (the process stalled), the slot
 * is left unused and the attempt asks again, so the variation the window's margin has to absorb is
 * bounded on the sending side.
 */
export const THROTTLE_SEND_WITHIN_MS = 50;

/** Lets the attempt through (null: send now) or answers when to come back. */
export async function takeThrottleSlot(
  ctx: OperationContext,
  endpointId: string,
  perSecond: number,
): Promise<Date | null> {
  const { db, tenantId } = ctx;
  // Raw SQL (./sql/take-throttle-slot.sql): the tenant filter is explicit. FOR UPDATE serialises
  // concurrent callers on the row, and a caller that waited reads the grants its predecessor wrote.
  const [row] = await takeThrottleSlotSql.rows(
    db,
    endpointId,
    tenantId,
    perSecond,
    `${THROTTLE_WINDOW_MS} milliseconds`,
  );
  if (!row || row.taken || !row.nextAt) return null;
  return row.nextAt;
}
