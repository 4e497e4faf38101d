// Auto-disable (docs/operations.md, "Webhook operations"), run after a failed attempt's record: an endpoint whose
// failure streak (kept by each attempt record, ../attempt/sql/record-attempts.sql) meets the rule is disabled
// and `webhook.endpoint.disabled` recorded. The notice is never delivered to the endpoint it is about,
// and the attempts of `webhook.*` notices never call this.
import { settings } from '@/server/config/settings';
import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { logger } from '@/server/log';
import { endpointStats } from '@/server/webhooks/endpoints/endpoint-stats';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializeEndpoint } from '@/server/webhooks/serialize';
import { sendDisabledNotice } from './disabled-email';
import { disableFailingEndpoint } from './sql/disable-failing-endpoint';
import { endpointIsFailing } from './sql/endpoint-is-failing';

/**
 * Disables the endpoint when its last WEBHOOK_DISABLE_AFTER_FAILURES attempts in a row failed and the
 * first of them is at least WEBHOOK_DISABLE_AFTER old: `is_active: false`, `disabled_reason:
 * "failing"`, its pending deliveries `failed`, and `webhook.endpoint.disabled` recorded, in one
 * transaction. The conditional update makes concurrent callers safe: only one disables. Then, if a
 * mail transport is configured, the tenant's admins get a notice. Resolves to whether this call
 * disabled it.
 */
export async function disableIfFailing(ctx: OperationContext, endpointId: string): Promise<boolean> {
  const { WEBHOOK_DISABLE_AFTER_FAILURES: limit, WEBHOOK_DISABLE_AFTER: ageMs } = settings();
  if (limit === 0) return false;
  const { tenantId } = ctx;
  // Most failed attempts are far from the rule: a read tells, and only a failing endpoint gets a
  // transaction (whose conditional update decides among concurrent callers).
  const [{ failing }] = await endpointIsFailing.rows(ctx.db, endpointId, tenantId, limit, ageMs);
  if (!failing) return false;
  const disabled = await transaction(ctx, async (tx) => {
    const db = await tx.orm();
    // Raw SQL (./sql/disable-failing-endpoint.sql): the tenant filter is explicit.
    const changed = await disableFailingEndpoint.execute(tx, endpointId, tenantId, limit, ageMs);
    if (changed === 0) return null;
    await db.delivery.updateMany({
      where: { endpointId, status: 'pending' },
      data: { status: 'failed', nextAttemptAt: null },
    });
    // Their claims end too: a failed delivery is in flight for no cap.
    await db.deliveryClaim.deleteMany({ where: { endpointId } });
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    const stats = await endpointStats(ctx, [endpointId]);
    const endpoint = serializeEndpoint(row, stats.get(endpointId));
    await recordEvent(tx, {
      tenantId,
      type: 'webhook.endpoint.disabled',
      object: endpoint,
      aboutEndpointId: endpointId,
    });
    return endpoint;
  });
  if (!disabled) return false;
  logger().warn(
    { endpoint_id: endpointId, tenant_id: tenantId, failures: limit },
    'webhook endpoint disabled after consecutive failures',
  );
  await sendDisabledNotice(ctx, disabled).catch((error) =>
    logger().error({ err: error, endpoint_id: endpointId }, 'could not e-mail the endpoint-disabled notice'),
  );
  return true;
}
