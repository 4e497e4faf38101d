import type { Booking } from '@/server/db/generated/client';
import type { Queryable } from '@/server/db/typed-sql';
import { bookingPayments } from './sql/booking-payments';

/**
 * The booking's payment as a booking shows it: the payment to read at /payments/{id}, and the page
 * where the customer pays (a pending Stripe payment's Checkout Session; null otherwise).
 */
export interface BookingPayment {
  id: string;
  checkout_url: string | null;
}

/** A booking row, from Prisma or raw SQL (whose JSON columns are untyped). */
type BookingRow = Omit<Booking, 'metadata'> & { metadata: unknown };

/** A booking as the REST API and event payloads show it, with its payment (null when it has none). */
export function serializeBooking(b: BookingRow, payment: BookingPayment | null) {
  return {
    id: b.id,
    status: b.status,
    customer: { name: b.customerName, email: b.customerEmail, phone: b.customerPhone },
    service: b.service,
    start_at: b.startAt.toISOString(),
    end_at: b.endAt.toISOString(),
    notes: b.notes,
    metadata: (b.metadata as Record<string, unknown> | null) ?? null,
    cancellation_reason: b.cancellationReason,
    service_id: b.serviceId,
    resource_id: b.resourceId,
    hold_expires_at: b.holdExpiresAt?.toISOString() ?? null,
    payment,
    conversation_id: b.conversationId,
    attendance_confirmed_at: b.attendanceConfirmedAt?.toISOString() ?? null,
    created_at: b.createdAt.toISOString(),
    updated_at: b.updatedAt.toISOString(),
  };
}

export type BookingResource = ReturnType<typeof serializeBooking>;

/**
 * The payment each booking shows (its latest: the SQL function `booking_payment`, the one definition
 * the booking list uses too), read in the caller's transaction or client.
 */
async function paymentsOfBookings(db: Queryable, tenantId: string, bookingIds: string[]) {
  const found = new Map<string, BookingPayment>();
  if (bookingIds.length === 0) return found;
  for (const row of await bookingPayments.rows(db, tenantId, bookingIds)) {
    found.set(row.bookingId, { id: row.id, checkout_url: row.checkoutUrl });
  }
  return found;
}

/** One booking row as the API shows it, its payment read in the same transaction (or client). */
export async function presentBooking(db: Queryable, row: Booking): Promise<BookingResource> {
  const payments = await paymentsOfBookings(db, row.tenantId, [row.id]);
  return serializeBooking(row, payments.get(row.id) ?? null);
}

/** Rows of one tenant as the API shows them, their payments read in one statement. */
export async function presentBookings(
  db: Queryable,
  tenantId: string,
  rows: Booking[],
): Promise<BookingResource[]> {
  const payments = await paymentsOfBookings(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => serializeBooking(row, payments.get(row.id) ?? null));
}
