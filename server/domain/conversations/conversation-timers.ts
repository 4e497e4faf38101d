// The conversation timers: `conversation.window.expiring` once per WhatsApp customer service window,
// WHATSAPP_WINDOW_WARNING before it closes, and `conversation.handoff.overdue` once per hand-off that
// waited longer than HANDOFF_SLA. They are precise timers (server/timers): planned in the transaction
// that opens a window or queues a hand-off, fired within seconds of their time. "Once" is kept in the
// row itself (`window_warned_for`, `handoff_overdue_at`) by a conditional update in the event's
// transaction, which also marks the timer fired, so restarts and several instances never repeat one.

import { settings } from '@/server/config/settings';
import { db } from '@/server/db/client';
import type { Conversation } from '@/server/db/generated/client';
import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import { type DueTimer, markFired, planTimers, replanTimer, type TimerPlan } from '@/server/timers/plan';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializeConversation } from './serialize';

const BATCH = 500;

/** The timers a conversation needs in its current state (planned in the caller's unit of work). */
export async function planConversationTimers(tx: UnitOfWork, c: Conversation): Promise<void> {
  const { WHATSAPP_WINDOW_WARNING, HANDOFF_SLA } = settings();
  const plans: TimerPlan[] = [];
  const closesAt = c.windowExpiresAt;
  if (
    c.channel === 'whatsapp' &&
    closesAt &&
    closesAt > new Date() &&
    c.windowWarnedFor?.getTime() !== closesAt.getTime()
  ) {
    plans.push({
      kind: 'conversation.window',
      dueAt: new Date(closesAt.getTime() - WHATSAPP_WINDOW_WARNING),
    });
  }
  if (c.status === 'pending_human' && c.handoffAt && !c.handoffOverdueAt) {
    plans.push({ kind: 'conversation.handoff', dueAt: new Date(c.handoffAt.getTime() + HANDOFF_SLA) });
  }
  await planTimers(tx, {
    subjectId: c.id,
    kinds: ['conversation.window', 'conversation.handoff'],
    plans,
  });
}

/** conversation.window.expiring for one conversation, if its window closes within the warning; once. */
async function warnWindow(tx: UnitOfWork, id: string, now: Date): Promise<number | Date> {
  const { WHATSAPP_WINDOW_WARNING } = settings();
  const db = await tx.orm();
  const c = await db.conversation.findUnique({ where: { id } });
  const closesAt = c?.windowExpiresAt;
  if (c?.channel !== 'whatsapp' || !closesAt || closesAt <= now) return 0;
  if (c.windowWarnedFor?.getTime() === closesAt.getTime()) return 0;
  const dueAt = new Date(closesAt.getTime() - WHATSAPP_WINDOW_WARNING);
  if (dueAt > now) return dueAt; // not yet (the setting grew since the timer was planned)
  const [row] = await db.conversation.updateManyAndReturn({
    where: {
      id,
      windowExpiresAt: closesAt,
      OR: [{ windowWarnedFor: null }, { windowWarnedFor: { not: closesAt } }],
    },
    data: { windowWarnedFor: closesAt },
  });
  if (!row) return 0;
  await recordEvent(tx, {
    tenantId: tx.tenantId,
    type: 'conversation.window.expiring',
    object: serializeConversation(row),
  });
  return 1;
}

/** conversation.handoff.overdue for one conversation, if its hand-off waited longer than HANDOFF_SLA; once. */
async function markOverdue(tx: UnitOfWork, id: string, now: Date): Promise<number | Date> {
  const { HANDOFF_SLA } = settings();
  const db = await tx.orm();
  const c = await db.conversation.findUnique({ where: { id } });
  if (c?.status !== 'pending_human' || !c.handoffAt || c.handoffOverdueAt) return 0;
  const dueAt = new Date(c.handoffAt.getTime() + HANDOFF_SLA);
  if (dueAt > now) return dueAt;
  const [row] = await db.conversation.updateManyAndReturn({
    where: { id, status: 'pending_human', handoffAt: c.handoffAt, handoffOverdueAt: null },
    data: { handoffOverdueAt: now },
  });
  if (!row) return 0;
  await recordEvent(tx, {
    tenantId: tx.tenantId,
    type: 'conversation.handoff.overdue',
    object: serializeConversation(row),
  });
  return 1;
}

/** A conversation timer fires (server/timers): its event at most once, or a re-plan when it woke early. */
export async function fireConversationTimer(
  timer: DueTimer,
  now = new Date(),
): Promise<'recorded' | 'nothing' | 'stale'> {
  return transaction({ tenantId: timer.tenantId }, async (tx) => {
    await tx.orm(); // the event's change is made through Prisma: its transaction, begun first
    if (!(await markFired(tx, timer))) return 'stale';
    const run = timer.kind === 'conversation.window' ? warnWindow : markOverdue;
    const outcome = await run(tx, timer.subjectId, now);
    if (outcome instanceof Date) {
      await replanTimer(tx, { id: timer.id, dueAt: outcome });
      return 'nothing';
    }
    return outcome === 1 ? 'recorded' : 'nothing';
  });
}

/**
 * Every due conversation timer's event, found by scanning the conversations (a repair pass and a test
 * helper; the timers fire these on their own). Idempotent and safe on several instances at once.
 */
export async function recordConversationTimers(
  now = new Date(),
): Promise<{ expiring: number; overdue: number }> {
  const { WHATSAPP_WINDOW_WARNING, HANDOFF_SLA } = settings();
  // Across tenants by design (a maintenance pass); each change then goes through its tenant's scope.
  const closing = await db().conversation.findMany({
    where: {
      channel: 'whatsapp',
      windowExpiresAt: { gt: now, lte: new Date(now.getTime() + WHATSAPP_WINDOW_WARNING) },
    },
    select: { id: true, tenantId: true },
    take: BATCH,
  });
  let expiring = 0;
  for (const c of closing) {
    const outcome = await transaction({ tenantId: c.tenantId }, (tx) => warnWindow(tx, c.id, now));
    if (outcome === 1) expiring++;
  }
  const waiting = await db().conversation.findMany({
    where: {
      status: 'pending_human',
      handoffOverdueAt: null,
      handoffAt: { lte: new Date(now.getTime() - HANDOFF_SLA) },
    },
    select: { id: true, tenantId: true },
    take: BATCH,
  });
  let overdue = 0;
  for (const c of waiting) {
    const outcome = await transaction({ tenantId: c.tenantId }, (tx) => markOverdue(tx, c.id, now));
    if (outcome === 1) overdue++;
  }
  return { expiring, overdue };
}
