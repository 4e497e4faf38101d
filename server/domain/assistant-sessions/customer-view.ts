// What the customer-bound tools answer about bookings: the fields a customer's own assistant needs to
// talk about an appointment, and nothing of the customer (name, phone, e-mail), of the business's
// notes or metadata, or of anyone else.
import type { BookingResource } from '@/server/domain/bookings/serialize';
import type { OperationContext } from '@/server/domain/context';
import type { CustomerBooking } from './schemas';

/** Bookings as a session's tools show them, each payment with its status (read in one query). */
export async function customerBookings(
  ctx: OperationContext,
  bookings: readonly BookingResource[],
): Promise<CustomerBooking[]> {
  const paymentIds = bookings.flatMap((b) => (b.payment ? [b.payment.id] : []));
  const statuses = new Map(
    paymentIds.length === 0
      ? []
      : (
          await ctx.db.payment.findMany({
            where: { id: { in: paymentIds } },
            select: { id: true, status: true },
          })
        ).map((p) => [p.id, p.status]),
  );
  return bookings.map((b) => {
    const status = b.payment ? statuses.get(b.payment.id) : undefined;
    return {
      id: b.id,
      status: b.status,
      service_id: b.service_id,
      resource_id: b.resource_id,
      start_at: b.start_at,
      end_at: b.end_at,
      hold_expires_at: b.hold_expires_at,
      ...(b.payment && status ? { payment: { status, checkout_url: b.payment.checkout_url } } : {}),
    };
  });
}
