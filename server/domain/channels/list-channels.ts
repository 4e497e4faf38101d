import type { TenantDb } from '@/server/db/tenant-scope';
import { paginate } from '@/server/http/pagination';
import { serializeChannel } from './serialize';

export function listChannels(db: TenantDb, query: { limit: number; cursor?: string }) {
  return paginate(
    query,
    ({ after, take }) => db.channel.findMany({ where: { ...after }, orderBy: { id: 'desc' }, take }),
    serializeChannel,
  );
}
