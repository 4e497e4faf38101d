import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { findEndpointOr404 } from '@/server/webhooks/endpoints/get-endpoint';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';
import { requeueFailedDeliveries } from './sql/requeue-failed-deliveries';

/** Deliveries requeued per transaction: short transactions, so the API and the engines never wait on it. */
const RECOVER_BATCH = 1_000;

export interface RecoverInput {
  id: string;
  since: string;
  until?: string;
  dry_run?: boolean;
}

/**
 * POST /webhooks/{id}/recover (docs/operations.md, "Webhook operations"): every `failed` delivery of the endpoint
 * created in [since, until) goes back to `pending` once, the same delivery (same id, event and
 * webhook-id), and gets a new round of attempts with the full retry schedule. `until` defaults to
 * now. A dry run only counts. A disabled endpoint is refused (409 endpoint_disabled): it would fail
 * them again.
 */
export async function recoverDeliveries(
  ctx: OperationContext,
  input: RecoverInput,
): Promise<{ dryRun: boolean; count: number }> {
  const { db } = ctx;
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
    const batch = await transaction(ctx, (tx) =>
      requeueBatch(tx, {
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

export interface RequeueBatch {
  endpointId: string;
  since: Date;
  until: Date;
  /** Keyset cursor: only deliveries with a larger id (the previous batch's `lastId`). */
  afterId: string;
  limit: number;
}

/**
 * One batch of a recovery, in one statement (./sql/requeue-failed-deliveries.sql): the rows are reset
 * (due now, a new round, not yet relayed) and the outbox's NOTIFY wakes the engine, which finds them
 * as it finds new deliveries; that is the whole hand-over. The cursor makes each delivery requeued at
 * most once per recovery, even if it fails again meanwhile.
 */
async function requeueBatch(
  tx: UnitOfWork,
  input: RequeueBatch,
): Promise<{ requeued: number; lastId: string | null }> {
  const [row] = await requeueFailedDeliveries.rows(
    tx,
    tx.tenantId,
    input.endpointId,
    input.afterId,
    input.since,
    input.until,
    input.limit,
    DELIVERIES_CHANNEL,
  );
  return { requeued: row.requeued, lastId: row.lastId };
}
