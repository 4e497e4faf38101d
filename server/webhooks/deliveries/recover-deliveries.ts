import type { TenantTx } from '@/server/db/tenant-scope';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { findEndpointOr404 } from '@/server/webhooks/endpoints/get-endpoint';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';

/** Deliveries requeued per transaction: short transactions, so the API and the engines never wait on it. */
export const RECOVER_BATCH = 1_000;

export interface RecoverInput {
  id: string;
  since: string;
  until?: string;
  dry_run?: boolean;
}

/**
 * POST /webhooks/{id}/recover (README, "Webhook operations"): every `failed` delivery of the endpoint
 * created in [since, until) goes back to `pending` once, the same delivery (same id, event and
 * webhook-id), and gets a new round of attempts with the full retry schedule. `until` defaults to
 * now. A dry run only counts. A disabled endpoint is refused (409 endpoint_disabled): it would fail
 * them again.
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

export interface RequeueBatch {
  tenantId: string;
  endpointId: string;
  since: Date;
  until: Date;
  /** Keyset cursor: only deliveries with a larger id (the previous batch's `lastId`). */
  afterId: string;
  limit: number;
}

/**
 * One batch of a recovery, in one statement: up to `limit` failed deliveries of the endpoint created
 * in [since, until), in id order after `afterId`, go back to `pending`, due now, as a new round of
 * attempts (`attempt_base` = the attempts they had), not yet relayed. That is the whole hand-over:
 * the rows are reset and the NOTIFY of the outbox (../hand-over.ts) wakes the engine, which finds
 * them as it finds new deliveries. The cursor makes each delivery requeued at most once per
 * recovery, even if it fails again meanwhile.
 */
async function requeueFailedDeliveries(
  tx: TenantTx,
  input: RequeueBatch,
): Promise<{ requeued: number; lastId: string | null }> {
  // Raw SQL: the tenant filter is explicit.
  const [row] = await tx.$queryRaw<{ requeued: number; last_id: string | null }[]>`
    with batch as (
      select id from deliveries
      where tenant_id = ${input.tenantId}::uuid and endpoint_id = ${input.endpointId} and id > ${input.afterId}
        and status = 'failed' and created_at >= ${input.since.toISOString()}::timestamptz
        and created_at < ${input.until.toISOString()}::timestamptz
      order by id
      limit ${input.limit}
    ), requeued as (
      update deliveries d set status = 'pending', attempt_base = d.attempt_count, next_attempt_at = now(),
        locked_until = null, relayed_at = null, updated_at = now()
      from batch where d.id = batch.id and d.tenant_id = ${input.tenantId}::uuid and d.status = 'failed'
      returning d.id
    ), notified as (
      select pg_notify(${DELIVERIES_CHANNEL}::text, '') from (select 1 from requeued limit 1) any_requeued
    )
    select (select count(*) from requeued)::int as requeued, (select max(id) from batch) as last_id,
      (select count(*) from notified)::int as notified`;
  return { requeued: row.requeued, lastId: row.last_id };
}
