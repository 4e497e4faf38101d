import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { serializeConversation } from './serialize';

export async function getConversation(ctx: OperationContext, input: { id: string }) {
  const { db } = ctx;
  const row = await db.conversation.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Conversation');
  return serializeConversation(row);
}
