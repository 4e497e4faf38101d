import type { z } from 'zod';
import type { ConversationListQuery } from '@/server/api/schemas/conversations';
import type { TenantDb } from '@/server/db/tenant-scope';
import { paginate } from '@/server/http/pagination';
import { serializeConversation } from './serialize';

/** Newest first. The hand-off queue is `status: 'pending_human'`. */
export function listConversations(db: TenantDb, query: z.output<typeof ConversationListQuery>) {
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
