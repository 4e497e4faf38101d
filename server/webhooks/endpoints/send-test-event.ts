import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { recordEventFor } from '@/server/webhooks/outbox';
import { serializeDelivery } from '@/server/webhooks/serialize';
import { findEndpointOr404 } from './get-endpoint';

/** Records a `webhook.test` event and delivers it to this one endpoint only (subscriptions do not apply). */
export async function sendTestEvent(ctx: OperationContext, input: { id: string }) {
  const { tenantId } = ctx;
  const endpoint = await findEndpointOr404(ctx.db, input.id);
  if (!endpoint.isActive)
    throw Errors.conflict('endpoint_inactive', 'The endpoint is disabled; enable it to send a test event');
  // The delivery is read before commit: the answer shows it as created, not however far the
  // worker (which starts on commit) has got with it by then.
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const { envelope, deliveryIds } = await recordEventFor(
      tx,
      {
        tenantId,
        type: 'webhook.test',
        object: { endpoint_id: endpoint.id, message: 'This is a test event sent from Switchboard' },
      },
      [endpoint.id],
    );
    const delivery = await db.delivery.findUniqueOrThrow({
      where: { id: deliveryIds[0] },
      include: { event: true },
    });
    return { event: envelope, delivery: serializeDelivery(delivery) };
  });
}
