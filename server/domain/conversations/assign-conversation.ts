import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { transitionConversation } from './transition';

/**
 * Gives an open or waiting conversation to a member of the tenant: it leaves the hand-off queue
 * (`open`, handled_by `human`). Reassigning is allowed; a resolved conversation answers 409.
 * Emits conversation.assigned.
 */
export function assignConversation(ctx: OperationContext, input: { id: string; userId: string }) {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const exists = await db.conversation.findUnique({ where: { id: input.id }, select: { id: true } });
    if (!exists) throw Errors.notFound('Conversation');
    const member = await db.membership.findFirst({
      where: { userId: input.userId },
      select: { userId: true },
    });
    if (!member) throw Errors.validation([{ path: 'user_id', message: 'Not a member of this tenant' }]);
    return transitionConversation(tx, {
      id: input.id,
      allowed: { status: { in: ['open', 'pending_human'] } },
      data: { status: 'open', handledBy: 'human', assigneeId: input.userId },
      event: 'conversation.assigned',
      refusal: (c) => `A ${c.status} conversation cannot be assigned`,
    });
  });
}
