import type { TenantDb } from '@/server/db/tenant-scope';
import { endpointStats } from './endpoint-stats';
import { checkEndpointUrl } from './errors';
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
export async function updateEndpoint(db: TenantDb, tenantId: string, input: UpdateEndpointInput) {
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
  const stats = await endpointStats(db, tenantId, [row.id]);
  return serializeEndpoint(row, stats.get(row.id));
}
