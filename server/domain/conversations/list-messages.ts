import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { serializeMessage } from './serialize';

/** A conversation's messages, newest first. */
export async function listMessages(
  ctx: OperationContext,
  input: { id: string; limit: number; cursor?: string },
) {
  const { db } = ctx;
  const conversation = await db.conversation.findUnique({ where: { id: input.id }, select: { id: true } });
  if (!conversation) throw Errors.notFound('Conversation');
  return paginate(
    input,
    ({ after, take }) =>
      db.message.findMany({ where: { ...after, conversationId: input.id }, orderBy: { id: 'desc' }, take }),
    serializeMessage,
  );
}
