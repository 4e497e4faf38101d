import type { OperationContext } from '@/server/domain/context';
import { requeueFailedDeliveries } from '@/server/events/record';
import { Errors } from '@/server/lib/errors';
import { findEndpointOr404 } from './get-endpoint';

/** Deliveries requeued per transaction: short transactions, so the API and the engines never wait on it. */
export const RECOVER_BATCH = 1_000;

export interface RecoverInput {
  id: string;
  since: string;
  until?: string;
  dry_run?: boolean;
}

/**
 * POST /webhooks/{id}/recover (CONTRACT §12): every `failed` delivery of the endpoint created in
 * [since, until) goes back to `pending` once, the same delivery (same id, event and webhook-id), and
 * gets a new round of attempts with the full retry schedule. `until` defaults to now. A dry run
 * only counts. A disabled endpoint is refused (409 endpoint_disabled): it would fail them again.
 */
export async function recoverDeliveries(
  ctx: OperationContext,
  input: RecoverInput,
): Promise<{ dryRun: boolean; count: number }> {
  const { db, tenantId } = ctx;
  const endpoint = await findEndpointOr404(db, input.id);
  if (!endpoint.isActive) {
    throw Errors.conflict(
      'endpoint_disabled',
      'The endpoint is disabled; re-enable it (PATCH is_active: true) before recovering its deliveries',
    );
  }
  const since = new Date(input.since);
  const until = input.until ? new Date(input.until) : new Date();
  if (input.dry_run) {
    const count = await db.delivery.count({
      where: { endpointId: endpoint.id, status: 'failed', createdAt: { gte: since, lt: until } },
    });
    return { dryRun: true, count };
  }
  let count = 0;
  let afterId = '';
  for (;;) {
    const batch = await db.$transaction((tx) =>
      requeueFailedDeliveries(tx, {
        tenantId,
        endpointId: endpoint.id,
        since,
        until,
        afterId,
        limit: RECOVER_BATCH,
      }),
    );
    count += batch.requeued;
    if (batch.lastId === null) break;
    afterId = batch.lastId;
  }
  return { dryRun: false, count };
}
