import type { OperationContext } from '@/server/domain/context';
import { findEndpointOr404 } from './get-endpoint';

/** Deletes the endpoint with its delivery log; queued attempts for it find nothing and send nothing. */
export async function deleteEndpoint(ctx: OperationContext, input: { id: string }): Promise<void> {
  const { db } = ctx;
  await findEndpointOr404(db, input.id);
  await db.webhookEndpoint.deleteMany({ where: { id: input.id } });
}
