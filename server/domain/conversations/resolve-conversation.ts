import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { transitionConversation } from './transition';

/** open | pending_human → resolved; emits conversation.resolved. A new inbound message reopens it. */
export function resolveConversation(ctx: OperationContext, input: { id: string }) {
  return transaction(ctx, (tx) =>
    transitionConversation(tx, {
      id: input.id,
      allowed: { status: { in: ['open', 'pending_human'] } },
      data: { status: 'resolved' },
      event: 'conversation.resolved',
      refusal: () => 'This conversation is already resolved',
    }),
  );
}
