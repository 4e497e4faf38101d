// What a due timer does, by kind: the one entry point both engines call (./worker.ts, and
// `fire-timer` in ../inngest/functions.ts). Every handler marks the timer fired in the transaction of
// its effect (server/timers/plan.ts `markFired`), so a
// timer that two workers, a restart, or a replayed Inngest step reach twice takes effect once.
import { db } from '@/server/db/client';
import { expireHeldBooking } from '@/server/domain/bookings/expire-hold';
import { sendBookingReminder } from '@/server/domain/bookings/send-reminder';
import { fireConversationTimer } from '@/server/domain/conversations/conversation-timers';
import { answerTap } from '@/server/domain/offers/answer-tap';
import { expireCheckoutTimer, refundLatePayment } from '@/server/domain/payments/checkout/timers';
import type { DueTimer, TimerKind } from '@/server/timers/plan';

const HANDLERS: Record<TimerKind, (timer: DueTimer) => Promise<string>> = {
  'booking.hold': expireHeldBooking,
  'booking.reminder': sendBookingReminder,
  'conversation.window': (timer) => fireConversationTimer(timer),
  'conversation.handoff': (timer) => fireConversationTimer(timer),
  'payment.expire_checkout': expireCheckoutTimer,
  'payment.refund_late': refundLatePayment,
  'conversation.tap': answerTap,
};

export function fireTimer(timer: DueTimer): Promise<string> {
  const handler = HANDLERS[timer.kind];
  if (!handler) return Promise.resolve('unknown');
  return handler(timer);
}

/** One timer by id and generation (the Inngest run's view): null when it was fired, re-planned or deleted. */
export async function loadTimer(id: string, generation: number): Promise<DueTimer | null> {
  // Across tenants by design: the engine serves every tenant; the handler then acts in its scope.
  const row = await db().timer.findUnique({ where: { id } });
  if (!row || row.generation !== generation || row.firedAt) return null;
  return {
    id: row.id,
    tenantId: row.tenantId,
    kind: row.kind as TimerKind,
    subjectId: row.subjectId,
    key: row.key,
    dueAt: row.dueAt,
    generation: row.generation,
  };
}
