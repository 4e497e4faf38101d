import type { Prisma } from '@/server/db/generated/client';
import type { CreateBookingInput } from '@/server/domain/bookings/schemas';
import type { OperationContext } from '@/server/domain/context';
import { newId } from '@/server/lib/ids';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializeBooking } from './serialize';

/** A new booking starts `pending`; emits booking.created. */
export function createBooking(ctx: OperationContext, input: CreateBookingInput) {
  const { db, tenantId } = ctx;
  return db.$transaction(async (tx) => {
    const row = await tx.booking.create({
      data: {
        id: newId('booking'),
        tenantId,
        customerName: input.customer.name,
        customerEmail: input.customer.email ?? null,
        customerPhone: input.customer.phone ?? null,
        service: input.service ?? null,
        startAt: new Date(input.start_at),
        endAt: new Date(input.end_at),
        notes: input.notes ?? null,
        metadata: (input.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
      },
    });
    const object = serializeBooking(row);
    await recordEvent(tx, { tenantId, type: 'booking.created', object });
    return object;
  });
}
