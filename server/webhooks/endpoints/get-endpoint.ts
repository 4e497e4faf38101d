import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { serializeEndpoint } from '@/server/webhooks/serialize';
import { endpointStats } from './endpoint-stats';

/** The endpoint row of this tenant, or 404 (another tenant's id is simply not found). */
export async function findEndpointOr404(db: OperationContext['db'], id: string) {
  const row = await db.webhookEndpoint.findUnique({ where: { id } });
  if (!row) throw Errors.notFound('Webhook endpoint');
  return row;
}

export async function getEndpoint(ctx: OperationContext, input: { id: string }) {
  const row = await findEndpointOr404(ctx.db, input.id);
  const stats = await endpointStats(ctx, [row.id]);
  return serializeEndpoint(row, stats.get(row.id));
}
