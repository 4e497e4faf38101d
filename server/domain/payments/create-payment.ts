import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import type { CreatePaymentInput } from '@/server/domain/payments/schemas';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializePayment } from './serialize';

/** A new payment starts `pending`; emits payment.created. booking_id must name a booking of this tenant. */
export function createPayment(ctx: OperationContext, input: CreatePaymentInput) {
  const { tenantId } = ctx;
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    if (input.booking_id) {
      const booking = await db.booking.findUnique({ where: { id: input.booking_id }, select: { id: true } });
      if (!booking) throw Errors.validation([{ path: 'booking_id', message: 'No such booking' }]);
    }
    const row = await db.payment.create({
      data: {
        id: newId('payment'),
        tenantId,
        bookingId: input.booking_id ?? null,
        amount: input.amount,
        currency: input.currency,
        provider: input.provider,
        providerRef: input.provider_ref ?? null,
      },
    });
    const object = serializePayment(row);
    await recordEvent(tx, { tenantId, type: 'payment.created', object });
    return object;
  });
}
