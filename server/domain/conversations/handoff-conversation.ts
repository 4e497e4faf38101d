import { transaction } from '@/server/db/unit-of-work';
import { assertReachableConversation } from '@/server/domain/assistant-sessions/customer-scope';
import { recordToolCall } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { transitionConversation } from './transition';

/**
 * The AI hands an open conversation it is handling to a person: it joins the hand-off queue
 * (`pending_human`, handled_by `human`) with the reason and summary kept for whoever picks it up.
 * Emits conversation.handoff.requested.
 */
export async function handoffConversation(
  ctx: OperationContext,
  input: { id: string; reason: string; summary?: string | null },
) {
  assertReachableConversation(ctx, input.id);
  return transaction(ctx, async (tx) => {
    const conversation = await transitionConversation(tx, {
      id: input.id,
      allowed: { status: 'open', handledBy: 'ai' },
      data: {
        status: 'pending_human',
        handledBy: 'human',
        handoffReason: input.reason,
        handoffSummary: input.summary ?? null,
        // The HANDOFF_SLA clock starts: transitionConversation plans its timer (conversation-timers.ts).
        handoffAt: new Date(),
        handoffOverdueAt: null,
      },
      event: 'conversation.handoff.requested',
      refusal: (c) =>
        c.status === 'open'
          ? 'This conversation is already handled by a person'
          : `A ${c.status} conversation cannot be handed off`,
    });
    await recordToolCall(tx, ctx, { type: 'conversation', id: conversation.id });
    return conversation;
  });
}
