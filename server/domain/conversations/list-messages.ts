import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { paginate } from '@/server/http/pagination';
import { serializeMessage } from './serialize';

/** A conversation's messages, newest first. */
export async function listMessages(
  db: TenantDb,
  _tenantId: string,
  input: { id: string; limit: number; cursor?: string },
) {
  const conversation = await db.conversation.findUnique({ where: { id: input.id }, select: { id: true } });
  if (!conversation) throw Errors.notFound('Conversation');
  return paginate(
    input,
    ({ after, take }) =>
      db.message.findMany({ where: { ...after, conversationId: input.id }, orderBy: { id: 'desc' }, take }),
    serializeMessage,
  );
}
