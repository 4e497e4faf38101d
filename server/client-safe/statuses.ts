// The fixed value sets of the API's resources (their OpenAPI enums), in one place for the server's
// schemas and the dashboard's filters alike. Client-safe: imports nothing.
// test/dashboard/client-safe-values-match-database.test.ts checks that each set equals its database enum.
export const ROLES = ['admin', 'agent'] as const;
export type Role = (typeof ROLES)[number];

export const BOOKING_STATUSES = [
  'pending',
  'confirmed',
  'cancelled',
  'completed',
  'expired',
  'no_show',
] as const;
/** Where a booking was made (its `source`). */
export const BOOKING_SOURCES = ['api', 'dashboard', 'whatsapp', 'booking_page', 'assistant'] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'refunded'] as const;
export const PAYMENT_PROVIDERS = ['manual', 'stripe'] as const;
export const CONVERSATION_STATUSES = ['open', 'pending_human', 'resolved'] as const;
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** The class of a delivery's last response status (`none`: no HTTP answer at all). */
export const RESPONSE_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;
