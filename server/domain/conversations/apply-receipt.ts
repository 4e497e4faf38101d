// Outbound status only moves forward: queued → sent → delivered → read, and failed is final (a
// delivered or read message cannot fail afterwards). The allowed-from set is the guard of a
// conditional update, so a late, repeated or out-of-order receipt matches nothing: no change, no
// event.

import type { EventType } from '@/server/client-safe/event-catalog';
import type { MessageStatus } from '@/server/db/generated/enums';
import type { OperationContext } from '@/server/domain/context';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializeMessage } from './serialize';

const RECEIPTS = {
  sent: { from: ['queued'], event: 'conversation.message.sent' },
  delivered: { from: ['queued', 'sent'], event: 'conversation.message.delivered' },
  read: { from: ['queued', 'sent', 'delivered'], event: 'conversation.message.read' },
  failed: { from: ['queued', 'sent'], event: 'conversation.message.failed' },
} as const satisfies Record<string, { from: MessageStatus[]; event: EventType }>;

export type ReceiptStatus = keyof typeof RECEIPTS;

export function isReceiptStatus(value: string): value is ReceiptStatus {
  return Object.hasOwn(RECEIPTS, value);
}

export async function applyReceipt(
  ctx: OperationContext,
  input: { externalId: string; status: ReceiptStatus; failureReason?: string | null },
): Promise<{ changed: boolean }> {
  const { db, tenantId } = ctx;
  const rule = RECEIPTS[input.status];
  return db.$transaction(async (tx) => {
    const [row] = await tx.message.updateManyAndReturn({
      where: { externalId: input.externalId, direction: 'outbound', status: { in: [...rule.from] } },
      data: {
        status: input.status,
        ...(input.status === 'failed'
          ? { failureReason: input.failureReason ?? 'Reported failed by WhatsApp' }
          : {}),
      },
    });
    if (!row) return { changed: false };
    await recordEvent(tx, { tenantId, type: rule.event, object: serializeMessage(row) });
    return { changed: true };
  });
}
