// `webhook.delivery.exhausted` (docs/operations.md, "Webhook operations"): recorded when a delivery's last
// scheduled attempt failed. Never delivered to the endpoint it is about; the attempts of `webhook.*`
// notices never record one.
import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import type { EventObject } from '@/server/events/payloads';
import { recordEvent } from '@/server/webhooks/outbox';

export async function recordDeliveryExhausted(
  ctx: OperationContext,
  object: EventObject<'webhook.delivery.exhausted'>,
): Promise<void> {
  await transaction(ctx, (tx) =>
    recordEvent(tx, {
      tenantId: ctx.tenantId,
      type: 'webhook.delivery.exhausted',
      object,
      aboutEndpointId: object.endpoint_id,
    }),
  );
}
