// Planning timers: what domain operations call, inside the transaction of the change that makes a
// timer due (a booking held, confirmed or moved; a WhatsApp window opened; a hand-off queued). Each
// timer is one row of `timers` (kind, subject, key → due_at), so the plan commits with the change or
// not at all, and a NOTIFY (delivered on commit) wakes the engine (worker.ts, or the Inngest relay).
// Re-planning a timer to another time bumps its generation and re-arms it; a timer whose plan is
// gone is deleted, so a cancelled or moved booking never fires for its old time.
import type { UnitOfWork } from '@/server/db/unit-of-work';
import { newId } from '@/server/lib/ids';
import { markTimerFired } from './sql/mark-timer-fired';
import { replanTimer as replanTimerSql } from './sql/replan-timer';
import { setTimers } from './sql/set-timers';

export const TIMER_CHANNEL = 'switchboard_timers';

export const TIMER_KINDS = [
  'booking.hold',
  'booking.reminder',
  'conversation.window',
  'conversation.handoff',
  'payment.expire_checkout',
  'payment.refund_late',
  'conversation.tap',
] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

export interface TimerPlan {
  kind: TimerKind;
  /** Tells apart timers of one kind and subject (a reminder's index); '' when there is one. */
  key?: string;
  dueAt: Date;
}

/**
 * Makes the timers of `kinds` for one subject exactly `plans`: missing ones are created, moved ones
 * re-armed (new due time, generation + 1, not fired), unchanged ones left alone (a fired one stays
 * fired), and the rest deleted. One statement (./sql/set-timers.sql), in the caller's transaction of
 * either kind; the engine is woken on commit when a timer was created or re-armed. `newSubject`: the
 * subject was created in this transaction, so it has no timers yet and an empty plan is nothing to do.
 */
export async function planTimers(
  tx: UnitOfWork,
  input: {
    subjectId: string;
    kinds: TimerKind[];
    plans: TimerPlan[];
    newSubject?: boolean;
  },
): Promise<void> {
  const { plans } = input;
  if (input.newSubject && plans.length === 0) return;
  await setTimers.rows(
    tx,
    tx.tenantId,
    input.subjectId,
    input.kinds,
    plans.map((p) => `${p.kind}|${p.key ?? ''}`),
    plans.map(() => newId('timer')),
    plans.map((p) => p.kind),
    plans.map((p) => p.key ?? ''),
    plans.map((p) => p.dueAt.toISOString()),
    TIMER_CHANNEL,
  );
}

/**
 * Moves one timer to `dueAt` from inside its own firing (a conversation timer that woke before the
 * configured moment): the timer is re-armed with a new generation.
 */
export async function replanTimer(tx: UnitOfWork, input: { id: string; dueAt: Date }): Promise<void> {
  await replanTimerSql.rows(tx, tx.tenantId, input.id, input.dueAt, TIMER_CHANNEL);
}

/** A timer as its handler gets it. */
export interface DueTimer {
  id: string;
  tenantId: string;
  kind: TimerKind;
  subjectId: string;
  key: string;
  dueAt: Date;
  generation: number;
}

/**
 * Marks the timer fired inside the handler's transaction: true for exactly one caller per generation
 * (the row lock serialises racers; a re-planned or deleted timer matches nothing). The handler's
 * effect commits with this mark or not at all, which makes every timer fire once.
 */
export async function markFired(
  tx: UnitOfWork,
  timer: Pick<DueTimer, 'id' | 'generation'>,
): Promise<boolean> {
  return (await markTimerFired.execute(tx, tx.tenantId, timer.id, timer.generation)) === 1;
}
