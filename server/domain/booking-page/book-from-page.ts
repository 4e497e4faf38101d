// A booking made on the booking page (POST /public/services/{id}/bookings): placed like any booking
// of a service (server/domain/bookings/create-booking.ts: atomic, 409 slot_unavailable when taken),
// with source booking_page. A paid service's booking is pending, held for its payment, with its Stripe
// Checkout page (which returns to the manage page); a free one is confirmed at once in the same
// transaction, unless the service requires confirmation: then it stays pending, without a hold, until
// the business confirms or cancels it.
import type { Service } from '@/server/db/generated/client';
import { createBooking } from '@/server/domain/bookings/create-booking';
import type { OperationContext } from '@/server/domain/context';
import { amountDue } from '@/server/domain/payments/checkout/session';
import { asBookingOfAddress, assertPhoneMayHold, checkPhoneMayHold } from './limits';
import type { PublicBookingInput } from './schemas';

export async function bookFromPage(ctx: OperationContext, service: Service, input: PublicBookingInput) {
  const phone = input.customer.phone;
  await assertPhoneMayHold(ctx.db, phone);
  const paid = amountDue(service) !== null;
  const booking = await asBookingOfAddress(ctx.clientAddress ?? 'unknown', () =>
    createBooking(
      ctx,
      {
        service_id: service.id,
        start_at: input.start_at,
        customer: { name: input.customer.name, phone, email: input.customer.email ?? null },
      },
      {
        check: (tx) => checkPhoneMayHold(tx, phone),
        confirm: !paid && !service.requiresConfirmation,
      },
    ),
  );
  return {
    booking: {
      id: booking.id,
      status: booking.status,
      start_at: booking.start_at,
      end_at: booking.end_at,
      hold_expires_at: booking.hold_expires_at,
    },
    manage_url: booking.manage_url,
    ...(booking.payment?.checkout_url ? { checkout_url: booking.payment.checkout_url } : {}),
  };
}
