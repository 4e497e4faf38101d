// The booking page's JSON (`/public/…`): what a tenant's customers call from a browser, the page
// itself (app/book, app/b) and any front end a business builds (docs/integrators.md "Your own booking
// page"). Visitor routes (server/http/route.ts): no credential, the path names the public service or
// the manage link, CORS open, per-address limits, Idempotency-Key on POST.
import { VISITOR_TAG } from '@/server/api/openapi-tags';
import { bookFromPage } from '@/server/domain/booking-page/book-from-page';
import {
  cancelManagedBooking,
  findManagedBooking,
  presentManagedBooking,
  rescheduleManagedBooking,
} from '@/server/domain/booking-page/manage-booking';
import { findPublicService, presentPublicService } from '@/server/domain/booking-page/public-service';
import { findPublicSlots } from '@/server/domain/booking-page/public-slots';
import {
  ManagedBooking,
  ManagedRescheduleInput,
  PublicBookingCreated,
  PublicBookingInput,
  PublicService,
  PublicSlotList,
  PublicSlotQuery,
} from '@/server/domain/booking-page/schemas';
import { json, visitorRoute } from '@/server/http/route';

const tag = VISITOR_TAG;
const byService = (params: { id: string }) => findPublicService(params.id);
const byToken = (params: { token: string }) => findManagedBooking(params.token);
const NOT_PUBLIC = 'A service that is not public and active, or no service at all, answers 404.';
const NOT_LIVE =
  'The token is the manage link’s (/b/{token}); an unknown token, or one whose booking ended more than 30 days ago, ' +
  'answers 404.';

export const bookingPageRoutes = [
  visitorRoute({
    method: 'GET',
    path: '/public/services/{id}',
    operationId: 'getPublicService',
    tag,
    summary: 'A public service: what its booking page shows',
    description: NOT_PUBLIC,
    subject: byService,
    responses: { 200: { description: 'The service', schema: PublicService } },
    handler: async ({ ctx, subject }) => json(200, await presentPublicService(ctx, subject.service)),
  }),
  visitorRoute({
    method: 'GET',
    path: '/public/services/{id}/slots',
    operationId: 'listPublicSlots',
    tag,
    summary: 'The free times of a public service',
    description:
      'As GET /slots (the same engine and rules: every local date of start…end in time_zone, at most 31 days, ' +
      'each with its free starts), without which resource is free. Pass the visitor’s own time_zone: the days ' +
      'are then the visitor’s dates, across any change of clock. ' +
      NOT_PUBLIC,
    subject: byService,
    query: PublicSlotQuery,
    responses: { 200: { description: 'Free times per local date', schema: PublicSlotList } },
    handler: async ({ ctx, subject, query }) =>
      json(200, await findPublicSlots(ctx, { ...query, service_id: subject.service.id })),
  }),
  visitorRoute({
    method: 'POST',
    path: '/public/services/{id}/bookings',
    operationId: 'createPublicBooking',
    tag,
    summary: 'Book a free time of a public service',
    description:
      'Placed as POST /bookings places a booking of a service (atomic: of racing requests for one time at most one ' +
      'succeeds; 409 slot_unavailable, nothing stored, when the time was taken), with source booking_page. A paid ' +
      'service (payment deposit or full): the booking is pending, held for PAYMENT_HOLD, and checkout_url is its ' +
      'Stripe Checkout page, which returns to manage_url (409 payment_provider_missing when the business has not ' +
      'connected Stripe). A free service: confirmed at once, unless requires_confirmation (then pending without a ' +
      'hold until the business confirms or cancels it). A phone may hold at most 2 pending bookings of the business ' +
      'at once (409 too_many_holds); a client address may make PUBLIC_BOOKINGS_PER_HOUR bookings an hour (10; then ' +
      '429 rate_limited with Retry-After). Send an Idempotency-Key (a random UUID): a retry with the same key and body ' +
      'answers the first booking again. ' +
      NOT_PUBLIC,
    subject: byService,
    body: PublicBookingInput,
    responses: { 201: { description: 'Booked', schema: PublicBookingCreated } },
    errors: [409, 502],
    handler: async ({ ctx, subject, body }) => json(201, await bookFromPage(ctx, subject.service, body)),
  }),
  visitorRoute({
    method: 'GET',
    path: '/public/bookings/{token}',
    operationId: 'getManagedBooking',
    tag,
    summary: 'A booking, as its manage link shows it',
    description:
      'The booking’s service, times, state and payment (with where to pay while it is pending), and whether it can ' +
      'still be cancelled or moved here (can_change, until change_until). Never the customer’s contact details, ' +
      'notes or metadata. ' +
      NOT_LIVE,
    subject: byToken,
    secretParams: ['token'],
    responses: { 200: { description: 'The booking', schema: ManagedBooking } },
    handler: async ({ ctx, subject }) => json(200, await presentManagedBooking(ctx, subject.booking)),
  }),
  visitorRoute({
    method: 'GET',
    path: '/public/bookings/{token}/slots',
    operationId: 'listManagedBookingSlots',
    tag,
    summary: 'The free times a booking can be moved to',
    description:
      'As GET /public/services/{id}/slots for the booking’s service, with the booking’s own interval not counting ' +
      'against it (so a time overlapping its current one is offered too), whether or not the service is public. ' +
      'A booking without a service answers 404. ' +
      NOT_LIVE,
    subject: async (params: { token: string }) => {
      const found = await findManagedBooking(params.token);
      return found?.booking.serviceId ? { ...found, serviceId: found.booking.serviceId } : null;
    },
    secretParams: ['token'],
    query: PublicSlotQuery,
    responses: { 200: { description: 'Free times per local date', schema: PublicSlotList } },
    handler: async ({ ctx, subject, query }) =>
      json(
        200,
        await findPublicSlots(ctx, {
          ...query,
          service_id: subject.serviceId,
          reschedule_booking_id: subject.booking.id,
        }),
      ),
  }),
  visitorRoute({
    method: 'POST',
    path: '/public/bookings/{token}/cancel',
    operationId: 'cancelManagedBooking',
    tag,
    summary: 'Cancel a booking through its manage link',
    description:
      'While it is pending or confirmed and more than its service’s cancel_notice_minutes before its start: ' +
      'cancelled with reason customer_cancelled (booking.cancelled; an unpaid Stripe checkout is withdrawn, money ' +
      'already paid is not refunded by this). Later, or a booking in another state: 409 too_late_to_change, ' +
      'nothing changed. ' +
      NOT_LIVE,
    subject: byToken,
    secretParams: ['token'],
    responses: { 200: { description: 'The cancelled booking', schema: ManagedBooking } },
    handler: async ({ ctx, subject }) => json(200, await cancelManagedBooking(ctx, subject.booking)),
  }),
  visitorRoute({
    method: 'POST',
    path: '/public/bookings/{token}/reschedule',
    operationId: 'rescheduleManagedBooking',
    tag,
    summary: 'Move a booking through its manage link',
    description:
      'While it may still be changed (as for cancel; else 409 too_late_to_change): moved to start_at with the rules ' +
      'of POST /bookings/{id}/reschedule (same checks, its own interval ignored, its resource kept when free; atomic). ' +
      'A time taken meanwhile: 409 slot_unavailable, the booking unchanged. A pending booking keeps its hold and ' +
      'its payment. ' +
      NOT_LIVE,
    subject: byToken,
    secretParams: ['token'],
    body: ManagedRescheduleInput,
    responses: { 200: { description: 'The moved booking', schema: ManagedBooking } },
    errors: [409],
    handler: async ({ ctx, subject, body }) =>
      json(200, await rescheduleManagedBooking(ctx, subject.booking, body)),
  }),
];
