import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { serializeConversation } from './serialize';

export async function getConversation(db: TenantDb, _tenantId: string, input: { id: string }) {
  const row = await db.conversation.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Conversation');
  return serializeConversation(row);
}
