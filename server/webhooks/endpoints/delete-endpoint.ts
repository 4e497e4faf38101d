import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { findEndpointOr404 } from './get-endpoint';

/** Deletes the endpoint with its delivery log; queued attempts for it find nothing and send nothing. */
async function deleteEndpointUnaudited(ctx: OperationContext, input: { id: string }): Promise<void> {
  const { db } = ctx;
  await findEndpointOr404(db, input.id);
  await db.webhookEndpoint.deleteMany({ where: { id: input.id } });
}

/** deleteEndpoint, in one transaction with its audit entry (webhook.deleted). */
export const deleteEndpoint = audited(deleteEndpointUnaudited, (input) => ({
  action: 'webhook.deleted',
  target: { type: 'webhook_endpoint', id: input.id },
}));
