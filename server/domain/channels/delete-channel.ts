import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';

/**
 * Removes a channel and its token. Its conversations stay; replies on them then fail with a
 * reason (no configured sender) and inbound traffic for the number is acknowledged and ignored.
 */
export async function deleteChannel(db: TenantDb, _tenantId: string, input: { id: string }): Promise<void> {
  const { count } = await db.channel.deleteMany({ where: { id: input.id } });
  if (count === 0) throw Errors.notFound('Channel');
}
