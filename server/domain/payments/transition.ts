import type { PaymentStatus } from '@/server/db/generated/enums';
import type { OperationContext } from '@/server/domain/context';
import type { EventType } from '@/server/events/catalog';
import { Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { type PaymentResource, serializePayment } from './serialize';

/** pending → succeeded | failed; succeeded → refunded; failed and refunded are final. */
export const PAYMENT_TRANSITIONS: Record<'succeeded' | 'failed' | 'refunded', PaymentStatus[]> = {
  succeeded: ['pending'],
  failed: ['pending'],
  refunded: ['succeeded'],
};

/**
 * Conditional update as the guard (two concurrent changes cannot both win); the event is recorded
 * in the same transaction.
 */
export function transitionPayment(
  ctx: OperationContext,
  input: { id: string; to: keyof typeof PAYMENT_TRANSITIONS; event: EventType; providerRef?: string },
): Promise<PaymentResource> {
  const { db, tenantId } = ctx;
  return db.$transaction(async (tx) => {
    const [row] = await tx.payment.updateManyAndReturn({
      where: { id: input.id, status: { in: PAYMENT_TRANSITIONS[input.to] } },
      data: { status: input.to, ...(input.providerRef ? { providerRef: input.providerRef } : {}) },
    });
    if (!row) {
      const current = await tx.payment.findUnique({ where: { id: input.id }, select: { status: true } });
      if (!current) throw Errors.notFound('Payment');
      throw Errors.invalidTransition(`A ${current.status} payment cannot become ${input.to}`);
    }
    const object = serializePayment(row);
    await recordEvent(tx, { tenantId, type: input.event, object });
    return object;
  });
}
