// Generated from managed-booking-payment.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type ManagedBookingPaymentParams = [tenantId: string, bookingId: string];

export interface ManagedBookingPaymentRow {
  id: string;
  status: string;
  amount: number;
  currency: string;
  checkoutUrl: string | null;
}

/**
 * The payment a manage page shows: the booking's own (booking_payment(): its latest), with what a
 * customer sees of it.
 */
export const managedBookingPayment = typedSql<ManagedBookingPaymentParams, ManagedBookingPaymentRow>({
  name: 'managed-booking-payment',
  text: `select p.id, p.status::text as status, p.amount, p.currency, p.checkout_url as "checkoutUrl"
from booking_payment($1::uuid, $2::text) bp
join payments p on p.tenant_id = $1::uuid and p.id = bp.id`,
  columns: ['id', 'status', 'amount', 'currency', 'checkoutUrl'],
});
