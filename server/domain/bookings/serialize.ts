import type { Booking } from '@/server/db/generated/client';
import type { TenantDb, TenantTx } from '@/server/db/tenant-scope';

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
    created_at: b.createdAt.toISOString(),
    updated_at: b.updatedAt.toISOString(),
  };
}

export type BookingResource = ReturnType<typeof serializeBooking>;

type Reader = Pick<TenantDb | TenantTx, 'payment'>;

/**
 * The payment each booking shows: its latest (a paid service's booking has the one of its Checkout
 * Session; a booking may also have manual payments recorded against it through POST /payments).
 */
async function paymentsOfBookings(db: Reader, bookingIds: string[]) {
  const found = new Map<string, BookingPayment>();
  if (bookingIds.length === 0) return found;
  const rows = await db.payment.findMany({
    where: { bookingId: { in: bookingIds } },
    select: { id: true, bookingId: true, checkoutUrl: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  for (const row of rows) {
    if (row.bookingId && !found.has(row.bookingId)) {
      found.set(row.bookingId, { id: row.id, checkout_url: row.checkoutUrl });
    }
  }
  return found;
}

/** One booking row as the API shows it, its payment read in the same transaction (or client). */
export async function presentBooking(db: Reader, row: Booking): Promise<BookingResource> {
  const payments = await paymentsOfBookings(db, [row.id]);
  return serializeBooking(row, payments.get(row.id) ?? null);
}

/** Rows as the API shows them, their payments read in one query. */
export async function presentBookings(db: Reader, rows: Booking[]): Promise<BookingResource[]> {
  const payments = await paymentsOfBookings(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => serializeBooking(row, payments.get(row.id) ?? null));
}
