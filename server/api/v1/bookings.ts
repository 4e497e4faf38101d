import { listOf } from '@/server/api/schemas/common';
import { cancelBooking } from '@/server/domain/bookings/cancel-booking';
import { completeBooking } from '@/server/domain/bookings/complete-booking';
import { confirmBooking } from '@/server/domain/bookings/confirm-booking';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { getBooking } from '@/server/domain/bookings/get-booking';
import { listBookings } from '@/server/domain/bookings/list-bookings';
import {
  Booking,
  BookingListQuery,
  CancelBookingInput,
  CreateBookingInput,
  UpdateBookingInput,
} from '@/server/domain/bookings/schemas';
import { updateBooking } from '@/server/domain/bookings/update-booking';
import { json, tenantRoute } from '@/server/http/route';

const tag = 'Bookings';
const TRANSITIONS =
  'States: pending → confirmed | cancelled; confirmed → cancelled | completed; cancelled and completed ' +
  'are final.';

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
      '(case-insensitive).',
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
    description: 'Emits booking.created. end_at must be after start_at (422).',
    body: CreateBookingInput,
    responses: { 201: { description: 'Created', schema: Booking } },
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
      'Changing start_at or end_at emits booking.rescheduled with data.previous = {start_at, end_at}. A ' +
      'cancelled or completed booking cannot be changed (409 invalid_transition).',
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
    description: `Emits booking.confirmed. ${TRANSITIONS}`,
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
    description: `Emits booking.cancelled; the optional reason is kept as cancellation_reason.
      ${TRANSITIONS}`.replace(/\s+/g, ' '),
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
];
