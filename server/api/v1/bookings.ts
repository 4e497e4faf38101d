import { listOf } from '@/server/api/schemas/common';
import { cancelBooking } from '@/server/domain/bookings/cancel-booking';
import { completeBooking } from '@/server/domain/bookings/complete-booking';
import { confirmBooking } from '@/server/domain/bookings/confirm-booking';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { getBooking } from '@/server/domain/bookings/get-booking';
import { listBookings } from '@/server/domain/bookings/list-bookings';
import { markNoShow } from '@/server/domain/bookings/no-show-booking';
import { rescheduleBooking } from '@/server/domain/bookings/reschedule-booking';
import {
  Booking,
  BookingListQuery,
  CancelBookingInput,
  CreateBookingInput,
  RescheduleBookingInput,
  UpdateBookingInput,
} from '@/server/domain/bookings/schemas';
import { updateBooking } from '@/server/domain/bookings/update-booking';
import { json, tenantRoute } from '@/server/http/route';

const tag = 'Bookings';
const TRANSITIONS =
  'States: pending → confirmed | cancelled | expired (a hold that ran out); confirmed → cancelled | completed | ' +
  'no_show; cancelled, completed, expired and no_show are final.';

export const bookingRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/bookings',
    operationId: 'listBookings',
    tag,
    permission: 'bookings.read',
    summary: "List the tenant's bookings",
    description:
      'Filters: status, from/to (on start_at, from inclusive, to exclusive), customer_email ' +
      '(case-insensitive), customer_phone (by its digits), service_id, resource_id.',
    query: BookingListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Booking, 'BookingList') } },
    handler: async ({ ctx, query }) => json(200, await listBookings(ctx, query)),
  }),
  tenantRoute({
    method: 'POST',
    path: '/bookings',
    operationId: 'createBooking',
    tag,
    permission: 'bookings.write',
    summary: 'Create a booking (starts pending)',
    description:
      'Emits booking.created. With service_id, a booking of that service: end_at = start_at + duration (sending ' +
      'end_at is a 422); it is placed on resource_id, or on the service’s free resource with the fewest bookings ' +
      'that day (when that one is taken concurrently, the next free one). Free means what GET /slots says (the ' +
      'start need not be on the slot grid). No two pending or confirmed bookings of one resource ever overlap: ' +
      'PostgreSQL itself refuses the second, and 409 slot_unavailable (nothing stored) means no resource of the ' +
      'service was free. hold_expires_at (future, at most 24 h ahead) makes it a hold: not confirmed by then, it ' +
      'becomes expired within seconds and frees its slot (booking.expired). A tenant has at most ' +
      'MAX_OPEN_HOLDS_PER_TENANT (default 1,000) open holds (pending bookings with hold_expires_at, paid ' +
      'services’ holds included): one more answers 409 hold_limit_reached and stores nothing. ' +
      'Paid services (payment deposit or full): the booking is held for PAYMENT_HOLD (default 30 min; an earlier ' +
      'hold_expires_at wins) and gets a pending Stripe payment of the deposit or the price, whose Stripe Checkout ' +
      'page is payment.checkout_url: send the customer there. Stripe’s completion confirms the booking ' +
      '(booking.confirmed, payment.succeeded); a session that expires unpaid, or a hold that runs out first, ' +
      'expires it (booking.expired, payment.failed). A payment that arrives after the hold ran out confirms the ' +
      'booking while its slot is still free, and is refunded in full through Stripe otherwise; a delayed method (a ' +
      'bank debit) still settling when the hold ends does not extend it: the booking expires on time and ' +
      'Stripe’s later verdict is such a late payment (or payment.failed). The slot is ' +
      'checked before Stripe is asked; Stripe not connected: 409 payment_provider_missing; Stripe out of reach: ' +
      '502 payment_provider_unavailable (retry); in both cases nothing is stored. customer.phone is E.164 (the + optional), returned as +digits. ' +
      'Without service_id the booking is free-form: end_at is required and it blocks nothing.',
    body: CreateBookingInput,
    responses: { 201: { description: 'Created', schema: Booking } },
    errors: [409, 502],
    handler: async ({ ctx, body }) => json(201, await createBooking(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/bookings/{id}',
    operationId: 'getBooking',
    tag,
    permission: 'bookings.read',
    summary: 'Read a booking',
    responses: { 200: { description: 'The booking', schema: Booking } },
    handler: async ({ ctx, params }) => json(200, await getBooking(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'PATCH',
    path: '/bookings/{id}',
    operationId: 'updateBooking',
    tag,
    permission: 'bookings.write',
    summary: 'Change or reschedule a booking',
    description:
      'Changing start_at or end_at emits booking.rescheduled with data.previous = {start_at, end_at, resource_id}. ' +
      'On a booking of a service a new start_at follows the reschedule rule (POST /bookings/{id}/reschedule) and ' +
      'end_at cannot be sent (422). A cancelled, completed, expired or no-show booking cannot be changed (409 ' +
      'invalid_transition).',
    body: UpdateBookingInput,
    responses: { 200: { description: 'The updated booking', schema: Booking } },
    errors: [409],
    handler: async ({ ctx, params, body }) =>
      json(200, await updateBooking(ctx, { id: params.id, changes: body })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/bookings/{id}/confirm',
    operationId: 'confirmBooking',
    tag,
    permission: 'bookings.write',
    summary: 'Confirm a pending booking',
    description: `Emits booking.confirmed and plans the service's reminders. A hold whose hold_expires_at has passed cannot be confirmed (409). A paid service's booking is confirmed by its payment; confirming it here (paid another way) leaves its Stripe payment as it is. ${TRANSITIONS}`,
    responses: { 200: { description: 'The confirmed booking', schema: Booking } },
    handler: async ({ ctx, params }) => json(200, await confirmBooking(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/bookings/{id}/cancel',
    operationId: 'cancelBooking',
    tag,
    permission: 'bookings.write',
    summary: 'Cancel a pending or confirmed booking',
    description: `Emits booking.cancelled; the optional reason is kept as cancellation_reason. A pending
      booking's unpaid Stripe Checkout Session is withdrawn at Stripe right after (its payment becomes failed).
      Cancelling never refunds: money already taken stays succeeded until you refund it (POST
      /payments/{id}/refund, in full or in part), as Stripe and cal.com do. ${TRANSITIONS}`.replace(
      /\s+/g,
      ' ',
    ),
    body: CancelBookingInput,
    responses: { 200: { description: 'The cancelled booking', schema: Booking } },
    handler: async ({ ctx, params, body }) =>
      json(200, await cancelBooking(ctx, { id: params.id, reason: body.reason })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/bookings/{id}/complete',
    operationId: 'completeBooking',
    tag,
    permission: 'bookings.write',
    summary: 'Complete a confirmed booking',
    description: `Emits booking.completed. ${TRANSITIONS}`,
    responses: { 200: { description: 'The completed booking', schema: Booking } },
    handler: async ({ ctx, params }) => json(200, await completeBooking(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/bookings/{id}/reschedule',
    operationId: 'rescheduleBooking',
    tag,
    permission: 'bookings.write',
    summary: 'Move a pending or confirmed booking to another time',
    description:
      'The same checks as a new booking, the booking’s own interval not counting against it. Without resource_id ' +
      'it keeps its resource when that one is free, else it is placed like a new booking. 409 slot_unavailable ' +
      'leaves it untouched; 409 invalid_transition for a booking in another state. Emits booking.rescheduled with ' +
      'data.previous = {start_at, end_at, resource_id}; reminders follow the new time (none for the old one). ' +
      'The payment stays with the booking: a pending booking keeps its hold and its Checkout Session, a paid one ' +
      'its payment (nothing is charged or refunded for the move).',
    body: RescheduleBookingInput,
    responses: { 200: { description: 'The moved booking', schema: Booking } },
    handler: async ({ ctx, params, body }) =>
      json(200, await rescheduleBooking(ctx, { id: params.id, ...body })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/bookings/{id}/no-show',
    operationId: 'markBookingNoShow',
    tag,
    permission: 'bookings.write',
    summary: 'Record that the customer did not come',
    description: `confirmed → no_show, once start_at has passed (before: 409 invalid_transition). Emits booking.no_show. ${TRANSITIONS}`,
    responses: { 200: { description: 'The booking, now no_show', schema: Booking } },
    handler: async ({ ctx, params }) => json(200, await markNoShow(ctx, { id: params.id })),
  }),
];
