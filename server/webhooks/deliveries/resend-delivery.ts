import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { createDeliveries } from '@/server/webhooks/outbox';
import { serializeDelivery } from '@/server/webhooks/serialize';

/**
 * Delivers the same event to the same endpoint again, now, as a new delivery (`resend_of_id`
 * points at the original) with its own attempts and retry schedule. Receivers see the same
 * `webhook-id`, so their deduplication applies.
 */
export async function resendDelivery(ctx: OperationContext, input: { id: string }) {
  const { tenantId } = ctx;
  const original = await ctx.db.delivery.findUnique({ where: { id: input.id }, include: { endpoint: true } });
  if (!original) throw Errors.notFound('Delivery');
  if (!original.endpoint.isActive) {
    throw Errors.conflict('endpoint_inactive', 'The endpoint is disabled; enable it before resending');
  }
  // Read before commit, as created (see send-test-event.ts).
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const [id] = await createDeliveries(tx, {
      tenantId,
      eventId: original.eventId,
      eventType: original.eventType,
      objectId: original.objectId,
      endpointIds: [original.endpointId],
      resendOfId: original.id,
    });
    return serializeDelivery(
      await db.delivery.findUniqueOrThrow({ where: { id }, include: { event: true } }),
    );
  });
}
