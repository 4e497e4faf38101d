// A tiny typed client for the REST API: openapi-fetch over the types openapi-typescript generates
// from the OpenAPI document (sdk/openapi.d.ts; `npm run client:types` regenerates them and
// `npm run lint` fails when they are stale). It compiles with the project (`npm run typecheck`), so
// a change to the API that breaks this code breaks the build.
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi';

export type Booking = components['schemas']['Booking'];
/** A resource's calendar feed: the document declares it as iCalendar text, not JSON. */
export type CalendarFeed =
  paths['/api/v1/resources/{id}/calendar.ics']['get']['responses'][200]['content']['text/calendar; charset=utf-8'];
/** The body of a booking.created delivery, data.object typed as the booking. */
export type BookingCreatedEvent = components['schemas']['BookingCreatedEvent'];

export function switchboard(options: { baseUrl: string; apiKey: string; tenantId: string }) {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
  });
  const header = { 'X-Tenant-ID': options.tenantId };
  return {
    /** Creates a booking; the answer is typed as the Booking schema, errors as problem details. */
    async createBooking(body: components['schemas']['CreateBookingRequest']): Promise<Booking> {
      const { data, error } = await client.POST('/api/v1/bookings', { params: { header }, body });
      if (error) throw new Error(`${error.code}: ${error.detail}`);
      return data;
    },
    /**
     * A resource's calendar feed, as calendar apps read it: iCalendar text (`text/calendar`), which the
     * document declares as a string, so it is read as text, not parsed as JSON.
     */
    async calendarFeed(resourceId: string, token: string): Promise<CalendarFeed> {
      const { data, error } = await client.GET('/api/v1/resources/{id}/calendar.ics', {
        params: { path: { id: resourceId }, query: { token } },
        parseAs: 'text',
      });
      if (error) throw new Error(`${error.code}: ${error.detail}`);
      return data;
    },
    async confirmedBookings(limit = 20): Promise<Booking[]> {
      const { data, error } = await client.GET('/api/v1/bookings', {
        params: { header, query: { status: 'confirmed', limit } },
      });
      if (error) throw new Error(`${error.code}: ${error.detail}`);
      return data.data;
    },
  };
}

/** A receiver's handler, typed by the event's schema (verify the signature before calling it). */
export function describeBookingCreated(event: BookingCreatedEvent): string {
  const booking = event.data.object;
  return `${booking.customer.name} booked ${booking.service ?? 'an appointment'} at ${booking.start_at}`;
}
