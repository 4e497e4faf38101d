import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { checkEndpointUrl } from './check-endpoint-url';
import { endpointStats } from './endpoint-stats';
import { findEndpointOr404 } from './get-endpoint';
import { serializeEndpoint } from './serialize';

export interface UpdateEndpointInput {
  id: string;
  url?: string;
  events?: string[];
  description?: string | null;
  is_active?: boolean;
}

/** Partial update. Disabling takes effect for attempts not yet started, scheduled retries included. */
async function updateEndpointUnaudited(ctx: OperationContext, input: UpdateEndpointInput) {
  const { db } = ctx;
  await findEndpointOr404(db, input.id);
  if (input.url !== undefined) await checkEndpointUrl(input.url);
  const row = await db.webhookEndpoint.update({
    where: { id: input.id },
    data: {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.is_active !== undefined ? { isActive: input.is_active } : {}),
    },
  });
  const stats = await endpointStats(ctx, [row.id]);
  return serializeEndpoint(row, stats.get(row.id));
}

/** updateEndpoint, in one transaction with its audit entry (webhook.updated). */
export const updateEndpoint = audited(updateEndpointUnaudited, (input) => ({
  action: 'webhook.updated',
  target: { type: 'webhook_endpoint', id: input.id },
}));
