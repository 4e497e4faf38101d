/** The tag of the booking page's routes (server/api/v1/booking-page.ts) in the OpenAPI document. */
export const VISITOR_TAG = 'Booking page';
