import { settings } from '@/server/config/settings';
import type { Service } from '@/server/db/generated/client';
import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import { contactAsCustomer } from '@/server/domain/assistant-sessions/customer-scope';
import { recordToolCall } from '@/server/domain/audit/record-audit';
import type { CreateBookingInput } from '@/server/domain/bookings/schemas';
import { bookingSourceOf, type OperationContext } from '@/server/domain/context';
import {
  abandonCheckout,
  amountDue,
  checkoutPaymentOf,
  openCheckoutFor,
  type PreparedCheckout,
  recordCheckoutPayment,
} from '@/server/domain/payments/checkout/session';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { recordEvent } from '@/server/webhooks/outbox';
import { syncBookingTimers } from './booking-timers';
import { assertHoldAllowed, refuseWhenHoldsFull } from './hold-limit';
import { manageUrlOf, newManageLink } from './manage-link';
import {
  activeService,
  blockedInterval,
  firstThatCommits,
  freeInOrder,
  loadCandidates,
  lockResource,
  PLACEMENT_TX,
  refusalFor,
  slotUnavailable,
} from './placement';
import { serializeBooking } from './serialize';
import { insertBooking } from './sql/insert-booking';
import { transitionIn } from './transition';

const MAX_HOLD_MS = 24 * 3_600_000;

/** What a caller other than the REST route adds to a booking of a service (the booking page). */
export interface PlacementOptions {
  /**
   * Runs in the booking's transaction before its row is written, and may refuse it (throw): the
   * booking page's limit of pending bookings per phone, counted under a lock so parallel requests
   * cannot pass it together.
   */
  check?: (tx: UnitOfWork) => Promise<void>;
  /** Confirmed at once, in the same transaction (booking.created, then booking.confirmed). */
  confirm?: boolean;
}

/** Where a booking comes from, for the callers inside the service (never a client's input). */
export interface BookingOrigin {
  /** The WhatsApp conversation it was booked in (a tap on an offer). */
  conversationId?: string;
}

/** What the service's own callers add: where it comes from, and how it is placed. */
export type BookingOptions = BookingOrigin & PlacementOptions;

/**
 * A new booking starts `pending`; emits booking.created. With `service_id` it is a booking of that
 * service: end = start + duration, placed on a free resource of the service (the one asked for, or the
 * free one with the fewest bookings that day; when it is taken concurrently, the next free one), the
 * overlap refused by the database itself. 409 slot_unavailable, with nothing stored, when none was free.
 * A paid service (payment deposit or full) holds the booking for PAYMENT_HOLD (or the caller's earlier
 * hold) and opens a Stripe Checkout Session for it, whose pending payment commits with the booking
 * (server/domain/payments/checkout/). Without `service_id` it is free-form and blocks nothing.
 * Any hold counts against MAX_OPEN_HOLDS_PER_TENANT (./hold-limit.ts): 409 hold_limit_reached.
 */
export async function createBooking(
  ctx: OperationContext,
  asked: CreateBookingInput,
  origin: BookingOptions = {},
) {
  // Under an assistant session the booking is its contact's, whoever the input names.
  const input = ctx.actingFor ? { ...asked, customer: contactAsCustomer(ctx.actingFor) } : asked;
  const now = Date.now();
  const hold = input.hold_expires_at ? new Date(input.hold_expires_at) : null;
  if (hold && (hold.getTime() <= now || hold.getTime() > now + MAX_HOLD_MS)) {
    throw Errors.validation([
      { path: 'hold_expires_at', message: 'Must be in the future and at most 24 h ahead' },
    ]);
  }
  if (input.service_id) return createServiceBooking(ctx, input, origin, input.service_id, hold, now);
  // A hot write: typed statements only, so its unit of work is a pg transaction (no Prisma).
  return transaction(ctx, async (tx) => {
    if (hold) await assertHoldAllowed(tx);
    const id = newId('booking');
    const row = await insertRow(tx, ctx, input, origin, {
      id,
      manage: newManageLink(id),
      service: input.service ?? null,
      startAt: new Date(input.start_at),
      endAt: new Date(input.end_at as string),
      holdExpiresAt: hold,
    });
    await syncBookingTimers(tx, row, null, { created: true });
    const object = serializeBooking(row, null);
    await recordEvent(tx, { tenantId: ctx.tenantId, type: 'booking.created', object });
    await recordToolCall(tx, ctx, { type: 'booking', id: row.id });
    return object;
  });
}

/** The new booking's row (./sql/insert-booking.sql), in the unit of work of either kind. */
async function insertRow(
  tx: UnitOfWork,
  ctx: OperationContext,
  input: CreateBookingInput,
  origin: BookingOrigin,
  at: {
    id: string;
    manage: { nonce: string; hash: string };
    service: string | null;
    serviceId?: string;
    resourceId?: string;
    startAt: Date;
    endAt: Date;
    holdExpiresAt: Date | null;
    blockedFrom?: Date;
    blockedUntil?: Date;
  },
) {
  const [row] = await insertBooking.rows(
    tx,
    at.id,
    ctx.tenantId,
    input.customer.name,
    input.customer.email ?? null,
    input.customer.phone ?? null,
    input.notes ?? null,
    input.metadata == null ? null : JSON.stringify(input.metadata),
    at.service,
    at.serviceId ?? null,
    at.resourceId ?? null,
    at.startAt,
    at.endAt,
    at.holdExpiresAt,
    at.blockedFrom ?? null,
    at.blockedUntil ?? null,
    bookingSourceOf(ctx),
    at.manage.nonce,
    at.manage.hash,
    origin.conversationId ?? null,
  );
  return row;
}

async function createServiceBooking(
  ctx: OperationContext,
  input: CreateBookingInput,
  origin: BookingOptions,
  serviceId: string,
  asked: Date | null,
  now: number,
) {
  const { db } = ctx;
  const service = await activeService(db, serviceId);
  const start = Date.parse(input.start_at);
  // A paid service is held for its payment (the earlier of the caller's hold and PAYMENT_HOLD).
  const paymentHold = amountDue(service) ? new Date(now + settings().PAYMENT_HOLD) : null;
  const hold = asked && paymentHold ? (asked < paymentHold ? asked : paymentHold) : (asked ?? paymentHold);
  const candidates = await loadCandidates(db, { service, start, resourceId: input.resource_id });
  const { free, reasons } = freeInOrder(service, candidates, start, now);
  // The slot is checked before Stripe is asked: no Checkout Session for a slot that is taken.
  if (free.length === 0) throw refusalFor(reasons);
  if (hold) await refuseWhenHoldsFull(db, ctx.tenantId);
  const bookingId = newId('booking');
  const manage = newManageLink(bookingId);
  const prepared = await openCheckoutFor(ctx, {
    bookingId,
    service,
    holdEndsAt: hold,
    customerEmail: input.customer.email,
    // Stripe sends the customer back to the booking's own page, paid or not.
    returnUrl: manageUrlOf({ id: bookingId, manageNonce: manage.nonce }),
  });
  try {
    const booked = await firstThatCommits(free, (candidate) =>
      transaction(
        ctx,
        (tx) =>
          insertServiceBooking(
            tx,
            ctx,
            input,
            { bookingId, manage, service, prepared, origin },
            candidate.resource.id,
            start,
            hold,
          ),
        PLACEMENT_TX,
      ),
    );
    if (booked) return booked;
    throw slotUnavailable(
      'Every free resource of the service was taken at that time by a concurrent booking',
    );
  } catch (error) {
    // Nothing was stored: the session must not take money for it.
    if (prepared) await abandonCheckout(ctx, prepared);
    throw error;
  }
}

/** In Prisma's transaction (the Checkout payment is written through it), begun first. */
async function insertServiceBooking(
  tx: UnitOfWork,
  ctx: OperationContext,
  input: CreateBookingInput,
  planned: {
    bookingId: string;
    manage: { nonce: string; hash: string };
    service: Service;
    prepared: PreparedCheckout | null;
    origin: BookingOptions;
  },
  resourceId: string,
  start: number,
  hold: Date | null,
) {
  const { service, prepared, origin } = planned;
  await tx.orm();
  await lockResource(tx, resourceId);
  if (hold) await assertHoldAllowed(tx);
  await origin.check?.(tx);
  const row = await insertRow(tx, ctx, input, origin, {
    id: planned.bookingId,
    manage: planned.manage,
    service: service.name,
    serviceId: service.id,
    resourceId,
    ...blockedInterval(service, start),
    holdExpiresAt: hold,
  });
  await syncBookingTimers(tx, row, service, { created: true });
  // booking.created already names the payment that the same transaction records next.
  const object = serializeBooking(row, checkoutPaymentOf(prepared));
  await recordEvent(tx, { tenantId: ctx.tenantId, type: 'booking.created', object });
  await recordToolCall(tx, ctx, { type: 'booking', id: row.id });
  // The payment step (Stripe Checkout): the pending payment commits with the booking.
  if (prepared) await recordCheckoutPayment(tx, prepared);
  if (origin.confirm) return transitionIn(tx, { id: row.id, to: 'confirmed', event: 'booking.confirmed' });
  return object;
}
