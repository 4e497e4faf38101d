import type { TenantDb } from '@/server/db/tenant-scope';
import { newId } from '@/server/lib/ids';
import { checkEndpointUrl } from './errors';
import { newEncryptedSecret } from './secrets';
import { serializeEndpoint } from './serialize';

export interface CreateEndpointInput {
  url: string;
  events: string[];
  description?: string | null;
  is_active?: boolean;
}

/** Registers an endpoint; the returned `webhook_secret` is the only time the secret is shown. */
export async function createEndpoint(db: TenantDb, tenantId: string, input: CreateEndpointInput) {
  await checkEndpointUrl(input.url);
  const { secret, secretEnc } = newEncryptedSecret();
  const row = await db.webhookEndpoint.create({
    data: {
      id: newId('webhookEndpoint'),
      tenantId,
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? null,
      isActive: input.is_active ?? true,
      secretEnc,
    },
  });
  return { ...serializeEndpoint(row), webhook_secret: secret };
}
