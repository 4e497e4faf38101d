import type { BookingStatus } from '@/server/db/generated/enums';
import type { OperationContext } from '@/server/domain/context';
import type { EventType } from '@/server/events/catalog';
import { Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { type BookingResource, serializeBooking } from './serialize';

/**
 * The booking state machine (CONTRACT §4): pending → confirmed | cancelled;
 * confirmed → cancelled | completed; cancelled and completed are final.
 */
export const BOOKING_TRANSITIONS: Record<'confirmed' | 'cancelled' | 'completed', BookingStatus[]> = {
  confirmed: ['pending'],
  cancelled: ['pending', 'confirmed'],
  completed: ['confirmed'],
};

export const FINAL_BOOKING_STATES: BookingStatus[] = ['cancelled', 'completed'];

/**
 * Moves a booking to `to` and records `event` in one transaction. The conditional update is the
 * guard: of two concurrent transitions only one finds the booking still in an allowed state.
 */
export function transitionBooking(
  ctx: OperationContext,
  input: {
    id: string;
    to: keyof typeof BOOKING_TRANSITIONS;
    event: EventType;
    cancellationReason?: string | null;
  },
): Promise<BookingResource> {
  const { db, tenantId } = ctx;
  return db.$transaction(async (tx) => {
    const [row] = await tx.booking.updateManyAndReturn({
      where: { id: input.id, status: { in: BOOKING_TRANSITIONS[input.to] } },
      data: {
        status: input.to,
        ...(input.to === 'cancelled' ? { cancellationReason: input.cancellationReason ?? null } : {}),
      },
    });
    if (!row) {
      const current = await tx.booking.findUnique({ where: { id: input.id }, select: { status: true } });
      if (!current) throw Errors.notFound('Booking');
      throw Errors.invalidTransition(`A ${current.status} booking cannot become ${input.to}`);
    }
    const object = serializeBooking(row);
    await recordEvent(tx, { tenantId, type: input.event, object });
    return object;
  });
}
