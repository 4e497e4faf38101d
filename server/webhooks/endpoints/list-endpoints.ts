import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import type { PageInput } from '@/server/lib/schemas';
import { serializeEndpoint } from '@/server/webhooks/serialize';
import { endpointStats } from './endpoint-stats';

export async function listEndpoints(ctx: OperationContext, input: PageInput) {
  const { db } = ctx;
  const page = await paginate(
    input,
    ({ after, take }) => db.webhookEndpoint.findMany({ where: { ...after }, orderBy: { id: 'desc' }, take }),
    (row) => row,
  );
  const stats = await endpointStats(
    ctx,
    page.data.map((e) => e.id),
  );
  return { data: page.data.map((e) => serializeEndpoint(e, stats.get(e.id))), next_cursor: page.next_cursor };
}
