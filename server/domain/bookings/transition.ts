import type { EventType } from '@/server/client-safe/event-catalog';
import type { Prisma } from '@/server/db/generated/client';
import type { BookingStatus } from '@/server/db/generated/enums';
import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import { reachableBookings } from '@/server/domain/assistant-sessions/customer-scope';
import { recordToolCall } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { syncBookingTimers } from './booking-timers';
import { isOverlapRefusal, lockResource, slotUnavailable } from './placement';
import { type BookingResource, presentBooking } from './serialize';

/**
 * The booking state machine (see the OpenAPI description of the booking actions): pending → confirmed |
 * cancelled | expired; confirmed → cancelled | completed | no_show; cancelled, completed, expired and
 * no_show are final, except that a late payment may confirm an expired booking while its slot is still
 * free (`confirmExpiredBooking`, the one way out of expired).
 */
export const BOOKING_TRANSITIONS: Record<
  'confirmed' | 'cancelled' | 'completed' | 'expired' | 'no_show',
  BookingStatus[]
> = {
  confirmed: ['pending'],
  cancelled: ['pending', 'confirmed'],
  completed: ['confirmed'],
  expired: ['pending'],
  no_show: ['confirmed'],
};

export const FINAL_BOOKING_STATES: BookingStatus[] = ['cancelled', 'completed', 'expired', 'no_show'];
export const ACTIVE_BOOKING_STATES: BookingStatus[] = ['pending', 'confirmed'];

interface TransitionInput {
  id: string;
  to: keyof typeof BOOKING_TRANSITIONS;
  event: EventType;
  cancellationReason?: string | null;
  /** Only when this also holds (a time condition); refused like an illegal transition otherwise. */
  when?: Prisma.BookingWhereInput;
  /** Why `when` failed, for the 409. */
  whenRefusal?: string;
  /** The bookings the caller may reach (an assistant session: its contact's); any other is not found. */
  reachable?: Prisma.BookingWhereInput;
}

/**
 * Moves a booking to `to` and records `event` in one transaction, re-planning its timers. The
 * conditional update is the guard: of two concurrent transitions only one finds the booking still in
 * an allowed state.
 */
export function transitionBooking(
  ctx: OperationContext,
  input: TransitionInput,
  /** More work of the same transaction, after the move (e.g. withdrawing an unpaid checkout). */
  alsoIn?: (tx: UnitOfWork, booking: BookingResource) => Promise<unknown>,
): Promise<BookingResource> {
  return transaction(ctx, async (tx) => {
    const object = await transitionIn(tx, { ...input, reachable: reachableBookings(ctx) });
    await alsoIn?.(tx, object);
    await recordToolCall(tx, ctx, { type: 'booking', id: object.id });
    return object;
  });
}

/** The move, its timers and its event, in the caller's unit of work (in Prisma's transaction). */
export async function transitionIn(tx: UnitOfWork, input: TransitionInput): Promise<BookingResource> {
  const db = await tx.orm();
  const reachable = input.reachable ?? {};
  const [row] = await db.booking.updateManyAndReturn({
    where: {
      id: input.id,
      status: { in: BOOKING_TRANSITIONS[input.to] },
      ...(input.when ?? {}),
      AND: [reachable],
    },
    data: {
      status: input.to,
      ...(input.to === 'cancelled' ? { cancellationReason: input.cancellationReason ?? null } : {}),
    },
  });
  if (!row) {
    const current = await db.booking.findFirst({
      where: { id: input.id, AND: [reachable] },
      select: { status: true },
    });
    if (!current) throw Errors.notFound('Booking');
    if (input.whenRefusal && BOOKING_TRANSITIONS[input.to].includes(current.status))
      throw Errors.invalidTransition(input.whenRefusal);
    throw Errors.invalidTransition(`A ${current.status} booking cannot become ${input.to}`);
  }
  await syncBookingTimers(tx, row);
  const object = await presentBooking(db, row);
  await recordEvent(tx, { tenantId: tx.tenantId, type: input.event, object });
  return object;
}

/**
 * expired → confirmed, for a payment that arrives after its hold ended: the booking blocks its slot
 * again, which the exclusion constraint allows only while no other booking took it (409
 * slot_unavailable otherwise, nothing changed). Emits booking.confirmed. Runs in the caller's
 * unit of work (the payment's); the refused write is rolled back to its savepoint, so the caller's
 * transaction goes on (a late payment is then refunded).
 */
export async function confirmExpiredBooking(tx: UnitOfWork, input: { id: string }) {
  const db = await tx.orm();
  const target = await db.booking.findUnique({ where: { id: input.id }, select: { resourceId: true } });
  if (target?.resourceId) await lockResource(tx, target.resourceId);
  let row: Awaited<ReturnType<typeof db.booking.updateManyAndReturn>>[number] | undefined;
  try {
    [row] = await tx.savepoint(() =>
      db.booking.updateManyAndReturn({
        where: { id: input.id, status: 'expired' },
        data: { status: 'confirmed' },
      }),
    );
  } catch (error) {
    if (isOverlapRefusal(error))
      throw slotUnavailable('The slot of this expired booking has been taken since');
    throw error;
  }
  if (!row) {
    const current = await db.booking.findUnique({ where: { id: input.id }, select: { status: true } });
    if (!current) throw Errors.notFound('Booking');
    throw Errors.invalidTransition(`A ${current.status} booking cannot be confirmed after expiring`);
  }
  await syncBookingTimers(tx, row);
  const object = await presentBooking(db, row);
  await recordEvent(tx, { tenantId: tx.tenantId, type: 'booking.confirmed', object });
  return object;
}
