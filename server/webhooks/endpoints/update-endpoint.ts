import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { serializeEndpoint } from '@/server/webhooks/serialize';
import { checkEndpointUrl } from './check-endpoint-url';
import { endpointStats } from './endpoint-stats';
import { findEndpointOr404 } from './get-endpoint';

export interface UpdateEndpointInput {
  id: string;
  url?: string;
  events?: string[];
  description?: string | null;
  is_active?: boolean;
  rate_limit_per_second?: number | null;
}

/**
 * Partial update. Disabling takes effect for attempts not yet started, scheduled retries included.
 * `is_active: true` also clears what the service's auto-disable left (`disabled_reason`,
 * `disabled_at`) and the failure streak, so the endpoint starts afresh (docs/operations.md, "Webhook operations"). A person's
 * `is_active: false` sets no reason (an endpoint the service disabled keeps its own).
 */
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
      ...(input.is_active === false ? { isActive: false } : {}),
      ...(input.is_active === true
        ? {
            isActive: true,
            disabledReason: null,
            disabledAt: null,
            failureStreak: 0,
            failureStreakSince: null,
          }
        : {}),
      ...(input.rate_limit_per_second !== undefined
        ? { rateLimitPerSecond: input.rate_limit_per_second }
        : {}),
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
