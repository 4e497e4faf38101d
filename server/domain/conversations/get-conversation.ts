import type { TenantDb } from '../../db/tenant-scope';
import { Errors } from '../../http/errors';
import { serializeConversation } from './serialize';

export async function getConversation(db: TenantDb, _tenantId: string, input: { id: string }) {
  const row = await db.conversation.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Conversation');
  return serializeConversation(row);
}
