// The service's own webhook operations (CONTRACT §12), run after an attempt's record: disabling an
// endpoint whose failure streak (kept by the attempt record, server/delivery/delivery-sql.ts) meets
// the rule, and the notice that a delivery failed for good. Both record a `webhook.*` event, which is
// never delivered to the endpoint it is about; the attempts of such events never call these.
import { settings } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import type { EventObject } from '@/server/events/payloads';
import { recordEvent } from '@/server/events/record';
import { logger } from '@/server/log';
import { sendDisabledNotice } from './disabled-notice';
import { endpointStats } from './endpoint-stats';
import { serializeEndpoint } from './serialize';

/**
 * Disables the endpoint when its last WEBHOOK_DISABLE_AFTER_FAILURES attempts in a row failed and the
 * first of them is at least WEBHOOK_DISABLE_AFTER old: `is_active: false`, `disabled_reason:
 * "failing"`, its pending deliveries `failed`, and `webhook.endpoint.disabled` recorded, in one
 * transaction. The conditional update makes concurrent callers safe: only one disables. Then, if a
 * mail transport is configured, the tenant's admins get a notice. Resolves to whether this call
 * disabled it.
 */
export async function disableIfFailing(tenantId: string, endpointId: string): Promise<boolean> {
  const { WEBHOOK_DISABLE_AFTER_FAILURES: limit, WEBHOOK_DISABLE_AFTER: ageMs } = settings();
  if (limit === 0) return false;
  const db = forTenant(tenantId);
  const disabled = await db.$transaction(async (tx) => {
    // Raw SQL: the tenant filter is explicit.
    const changed = await tx.$executeRaw`
      update webhook_endpoints set is_active = false, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
      where id = ${endpointId} and tenant_id = ${tenantId}::uuid and is_active
        and failure_streak >= ${limit} and failure_streak_since <= now() - ${ageMs} * interval '1 millisecond'`;
    if (changed === 0) return null;
    await tx.delivery.updateMany({
      where: { endpointId, status: 'pending' },
      data: { status: 'failed', nextAttemptAt: null, lockedUntil: null },
    });
    const row = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    const stats = await endpointStats(operationContext(tenantId, SYSTEM_ACTOR), [endpointId]);
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
  await sendDisabledNotice(tenantId, disabled).catch((error) =>
    logger().error({ err: error, endpoint_id: endpointId }, 'could not e-mail the endpoint-disabled notice'),
  );
  return true;
}

/** Records `webhook.delivery.exhausted` for a delivery whose last scheduled attempt failed. */
export async function recordDeliveryExhausted(
  tenantId: string,
  object: EventObject<'webhook.delivery.exhausted'>,
): Promise<void> {
  await forTenant(tenantId).$transaction((tx) =>
    recordEvent(tx, {
      tenantId,
      type: 'webhook.delivery.exhausted',
      object,
      aboutEndpointId: object.endpoint_id,
    }),
  );
}
