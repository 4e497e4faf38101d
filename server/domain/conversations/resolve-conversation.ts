import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { transitionConversation } from './transition';

/**
 * open | pending_human → resolved; emits conversation.resolved. A new inbound message reopens it.
 * `resolved_at` ends every assistant session minted before it, even after a reopening.
 */
export function resolveConversation(ctx: OperationContext, input: { id: string }) {
  return transaction(ctx, (tx) =>
    transitionConversation(tx, {
      id: input.id,
      allowed: { status: { in: ['open', 'pending_human'] } },
      data: { status: 'resolved', resolvedAt: new Date() },
      event: 'conversation.resolved',
      refusal: () => 'This conversation is already resolved',
    }),
  );
}
