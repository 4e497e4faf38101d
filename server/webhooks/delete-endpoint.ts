import type { TenantDb } from '@/server/db/tenant-scope';
import { findEndpointOr404 } from './get-endpoint';

/** Deletes the endpoint with its delivery log; queued attempts for it find nothing and send nothing. */
export async function deleteEndpoint(db: TenantDb, _tenantId: string, input: { id: string }): Promise<void> {
  await findEndpointOr404(db, input.id);
  await db.webhookEndpoint.deleteMany({ where: { id: input.id } });
}
