// Generated from booking-payments.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type BookingPaymentsParams = [tenantId: string, bookingIds: string[]];

export interface BookingPaymentsRow {
  bookingId: string;
  id: string;
  checkoutUrl: string | null;
}

/**
 * The payment each of the tenant's bookings shows (booking_payment(): its latest), for the bookings
 * read or changed by an operation; a booking without one has no row.
 */
export const bookingPayments = typedSql<BookingPaymentsParams, BookingPaymentsRow>({
  name: 'booking-payments',
  text: `select b.id as "bookingId", p.id, p.checkout_url as "checkoutUrl"
from unnest($2::text[]) as b(id)
cross join lateral booking_payment($1::uuid, b.id) p`,
  columns: ['bookingId', 'id', 'checkoutUrl'],
});
