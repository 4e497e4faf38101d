import type { z } from 'zod';
import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import type { ConversationListQuery } from '@/server/domain/conversations/schemas';
import { serializeConversation } from './serialize';

/** Newest first. The hand-off queue is `status: 'pending_human'`. */
export function listConversations(ctx: OperationContext, query: z.output<typeof ConversationListQuery>) {
  const { db } = ctx;
  return paginate(
    query,
    ({ after, take }) =>
      db.conversation.findMany({
        where: {
          ...after,
          ...(query.status ? { status: query.status } : {}),
          ...(query.handled_by ? { handledBy: query.handled_by } : {}),
          ...(query.assignee_id ? { assigneeId: query.assignee_id } : {}),
        },
        orderBy: { id: 'desc' },
        take,
      }),
    serializeConversation,
  );
}
