import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import { serializeChannel } from './serialize';

export function listChannels(ctx: OperationContext, query: { limit: number; cursor?: string }) {
  const { db } = ctx;
  return paginate(
    query,
    ({ after, take }) => db.channel.findMany({ where: { ...after }, orderBy: { id: 'desc' }, take }),
    serializeChannel,
  );
}
