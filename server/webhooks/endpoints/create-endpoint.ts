import { settings } from '@/server/config/settings';
import { lockTenantRows } from '@/server/db/advisory-lock';
import { transaction } from '@/server/db/unit-of-work';
import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { newEncryptedSecret } from '@/server/webhooks/secrets';
import { serializeEndpoint } from '@/server/webhooks/serialize';
import { checkEndpointUrl } from './check-endpoint-url';

export interface CreateEndpointInput {
  url: string;
  events: string[];
  description?: string | null;
  is_active?: boolean;
  rate_limit_per_second?: number | null;
}

/**
 * Registers an endpoint; the returned `webhook_secret` is the only time the secret is shown. A tenant
 * has at most MAX_WEBHOOK_ENDPOINTS_PER_TENANT endpoints: one more is 409 endpoint_limit_reached.
 */
async function createEndpointUnaudited(ctx: OperationContext, input: CreateEndpointInput) {
  const { tenantId } = ctx;
  await checkEndpointUrl(input.url);
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    // Concurrent creations of the tenant count one after the other.
    await lockTenantRows(tx, 'webhook_endpoints');
    const limit = settings().MAX_WEBHOOK_ENDPOINTS_PER_TENANT;
    if ((await db.webhookEndpoint.count()) >= limit) {
      throw Errors.conflict(
        'endpoint_limit_reached',
        `This tenant already has ${limit} webhook endpoints, the most it may have; delete one to add another`,
      );
    }
    const { secret, secretEnc } = newEncryptedSecret();
    const row = await db.webhookEndpoint.create({
      data: {
        id: newId('webhookEndpoint'),
        tenantId,
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        isActive: input.is_active ?? true,
        rateLimitPerSecond: input.rate_limit_per_second ?? null,
        secretEnc,
      },
    });
    return { ...serializeEndpoint(row), webhook_secret: secret };
  });
}

/** createEndpoint, in one transaction with its audit entry (webhook.created). */
export const createEndpoint = audited(createEndpointUnaudited, (_input, endpoint) => ({
  action: 'webhook.created',
  target: { type: 'webhook_endpoint', id: endpoint.id },
}));
