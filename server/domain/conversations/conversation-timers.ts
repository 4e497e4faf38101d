// The conversation timers (CONTRACT §13), run by the periodic jobs: `conversation.window.expiring`
// once per WhatsApp customer service window, WHATSAPP_WINDOW_WARNING before it closes, and
// `conversation.handoff.overdue` once per hand-off that waited longer than HANDOFF_SLA. "Once" is
// kept in the row itself (`window_warned_for`, `handoff_overdue_at`) by a conditional update in the
// event's transaction, so instances running this at once, or a restart, never record one twice.
import { settings } from '@/server/config/settings';
import { db } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializeConversation } from './serialize';

const BATCH = 500;

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
    select: { id: true, tenantId: true, windowExpiresAt: true, windowWarnedFor: true },
    take: BATCH,
  });
  let expiring = 0;
  for (const c of closing) {
    const closesAt = c.windowExpiresAt as Date;
    if (c.windowWarnedFor?.getTime() === closesAt.getTime()) continue;
    expiring += await forTenant(c.tenantId).$transaction(async (tx) => {
      const [row] = await tx.conversation.updateManyAndReturn({
        where: {
          id: c.id,
          windowExpiresAt: closesAt,
          OR: [{ windowWarnedFor: null }, { windowWarnedFor: { not: closesAt } }],
        },
        data: { windowWarnedFor: closesAt },
      });
      if (!row) return 0;
      const object = serializeConversation(row);
      await recordEvent(tx, { tenantId: c.tenantId, type: 'conversation.window.expiring', object });
      return 1;
    });
  }

  const waiting = await db().conversation.findMany({
    where: {
      status: 'pending_human',
      handoffOverdueAt: null,
      handoffAt: { lte: new Date(now.getTime() - HANDOFF_SLA) },
    },
    select: { id: true, tenantId: true, handoffAt: true },
    take: BATCH,
  });
  let overdue = 0;
  for (const c of waiting) {
    overdue += await forTenant(c.tenantId).$transaction(async (tx) => {
      const [row] = await tx.conversation.updateManyAndReturn({
        where: { id: c.id, status: 'pending_human', handoffAt: c.handoffAt, handoffOverdueAt: null },
        data: { handoffOverdueAt: now },
      });
      if (!row) return 0;
      const object = serializeConversation(row);
      await recordEvent(tx, { tenantId: c.tenantId, type: 'conversation.handoff.overdue', object });
      return 1;
    });
  }
  return { expiring, overdue };
}
