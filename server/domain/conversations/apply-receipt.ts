// Outbound status only moves forward: queued → sent → delivered → read, and failed is final (a
// delivered or read message cannot fail afterwards). The allowed-from set is the guard of a
// conditional update, so a late, repeated or out-of-order receipt matches nothing: no change, no
// event. Receipts are the busiest writer of events (up to three per message sent), so the change and
// its event are typed statements only: their unit of work is a pg transaction, not Prisma's
// (server/db/unit-of-work.ts).

import type { EventType } from '@/server/client-safe/event-catalog';
import type { MessageStatus } from '@/server/db/generated/enums';
import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializeMessage } from './serialize';
import { updateOutboundStatus } from './sql/update-outbound-status';

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
  const { tenantId } = ctx;
  const rule = RECEIPTS[input.status];
  const failureReason =
    input.status === 'failed' ? (input.failureReason ?? 'Reported failed by WhatsApp') : null;
  return transaction(ctx, async (tx) => {
    const [row] = await updateOutboundStatus.rows(
      tx,
      tenantId,
      input.externalId,
      input.status,
      failureReason,
      [...rule.from],
    );
    if (!row) return { changed: false };
    await recordEvent(tx, { tenantId, type: rule.event, object: serializeMessage(row) });
    return { changed: true };
  });
}
