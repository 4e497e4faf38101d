import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';

/**
 * Removes a channel and its token. Its conversations stay; replies on them then fail with a
 * reason (no configured sender) and inbound traffic for the number is acknowledged and ignored.
 */
async function deleteChannelUnaudited(ctx: OperationContext, input: { id: string }): Promise<void> {
  const { db } = ctx;
  const { count } = await db.channel.deleteMany({ where: { id: input.id } });
  if (count === 0) throw Errors.notFound('Channel');
}

/** deleteChannel, in one transaction with its audit entry (channel.deleted). */
export const deleteChannel = audited(deleteChannelUnaudited, (input) => ({
  action: 'channel.deleted',
  target: { type: 'channel', id: input.id },
}));
