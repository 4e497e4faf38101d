// What the booking page and its JSON (`/public/…`) read and answer: only what a visitor may see of a
// service, its free times and their own booking. Never a resource, another booking, notes, metadata
// or a customer's contact details.
import { z } from 'zod';
import { LIMITS } from '@/server/client-safe/limits';
import { BookingStatus, PhoneNumber } from '@/server/domain/bookings/schemas';
import { PaymentStatus } from '@/server/domain/payments/schemas';
import { PaymentMode } from '@/server/domain/services/schemas';
import { Timestamp } from '@/server/lib/schemas';

export const PublicService = z
  .object({
    id: z.string().meta({ example: 'svc_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
    name: z.string(),
    duration_minutes: z.number().int(),
    price: z.object({ amount: z.number().int(), currency: z.string() }).nullable(),
    payment: PaymentMode.meta({
      description: 'none, or what is paid when booking: deposit or full (the price)',
    }),
    deposit_amount: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'With payment deposit: what is paid now' }),
    time_zone: z.string().meta({
      description: 'The business’s zone: its first resource’s (show times in the visitor’s own zone)',
      example: 'Europe/Madrid',
    }),
    requires_confirmation: z
      .boolean()
      .meta({ description: 'A free booking waits for the business to confirm it' }),
    cancel_notice_minutes: z.number().int().meta({
      description:
        'A booking can be cancelled or moved through its manage link until this long before it starts',
    }),
    booking_window_days: z.number().int().meta({ description: 'How many days ahead it can be booked' }),
  })
  .meta({ id: 'PublicService' });

const date = z.iso.date().meta({ description: 'A local date YYYY-MM-DD in time_zone' });

export const PublicSlotQuery = z.object({
  start: date.meta({ description: 'First local date (inclusive)', example: '2027-03-01' }),
  end: date.meta({
    description: 'Last local date (inclusive); at most 31 days from start',
    example: '2027-03-31',
  }),
  time_zone: z.string().max(64).default('UTC').meta({
    description: 'The IANA zone the dates are read in: the visitor’s own (default UTC)',
    example: 'America/New_York',
  }),
});

export const PublicSlotList = z
  .object({
    service_id: z.string(),
    time_zone: z.string(),
    days: z.record(z.string(), z.array(z.object({ start: Timestamp, end: Timestamp }))).meta({
      description: 'Every local date of the range, each with its free times in order (UTC instants)',
      example: {
        '2027-03-01': [{ start: '2027-03-01T14:00:00.000Z', end: '2027-03-01T14:45:00.000Z' }],
        '2027-03-02': [],
      },
    }),
  })
  .meta({ id: 'PublicSlotList' });

export const PublicBookingInput = z.object({
  start_at: z.iso.datetime({ offset: true }).meta({
    description: 'A free start from the slots (RFC 3339; any offset)',
    example: '2027-03-01T14:00:00Z',
  }),
  customer: z.object({
    name: z.string().trim().min(1).max(200),
    phone: PhoneNumber,
    email: z.string().trim().email().max(LIMITS.email).optional().nullable(),
  }),
});
export type PublicBookingInput = z.output<typeof PublicBookingInput>;

const manageUrl = z.string().meta({
  description: 'The customer’s page for this booking (/b/{token}): keep it, it is the only way back',
  example: 'https://switchboard.example.com/b/mng_3q2Xb0bFzQk9d7T1u4mP6wJc8vYh5sLr0aNe2iGo7tU',
});

export const PublicBookingCreated = z
  .object({
    booking: z.object({
      id: z.string().meta({ example: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
      status: BookingStatus,
      start_at: Timestamp,
      end_at: Timestamp,
      hold_expires_at: Timestamp.nullable().meta({
        description: 'A paid service’s booking is held until then for its payment',
      }),
    }),
    manage_url: manageUrl,
    checkout_url: z.string().optional().meta({
      description: 'A paid service: send the customer here (Stripe Checkout); it returns to manage_url',
      example: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4',
    }),
  })
  .meta({ id: 'PublicBookingCreated' });

/** The booking as its manage link shows it to whoever holds the link. */
export const ManagedBooking = z
  .object({
    id: z.string().meta({ example: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
    status: BookingStatus,
    start_at: Timestamp,
    end_at: Timestamp,
    hold_expires_at: Timestamp.nullable(),
    service: z
      .object({ id: z.string().nullable(), name: z.string().nullable(), duration_minutes: z.number().int() })
      .meta({ description: 'What was booked (id null for a booking without a service)' }),
    time_zone: z.string().meta({ description: 'The business’s zone for it (its resource’s)' }),
    payment: z
      .object({
        status: PaymentStatus,
        amount: z.number().int(),
        currency: z.string(),
        checkout_url: z
          .string()
          .nullable()
          .meta({ description: 'Where to pay while it is pending (Stripe Checkout); null otherwise' }),
      })
      .nullable(),
    cancellation_reason: z.string().nullable(),
    change_until: Timestamp.nullable().meta({
      description:
        'Until when it can be cancelled or moved here (its start minus the service’s cancel_notice_minutes); null ' +
        'when it no longer can (not pending or confirmed)',
    }),
    can_change: z.boolean().meta({ description: 'Whether cancel and reschedule are allowed now' }),
    manage_url: manageUrl,
  })
  .meta({ id: 'ManagedBooking' });
export type ManagedBooking = z.output<typeof ManagedBooking>;

export const ManagedRescheduleInput = z.object({
  start_at: z.iso.datetime({ offset: true }).meta({
    description: 'A free start from the booking’s slots (RFC 3339)',
    example: '2027-03-02T15:00:00Z',
  }),
});
