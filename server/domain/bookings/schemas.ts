import { z } from 'zod';
import { LIMITS } from '@/server/client-safe/limits';
import { BOOKING_STATUSES } from '@/server/client-safe/statuses';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const BookingStatus = z.enum(BOOKING_STATUSES);

/** An international number (E.164, the leading + optional); stored as +digits, matched by its digits. */
export const PhoneNumber = z
  .string()
  .trim()
  .regex(/^\+?[1-9][0-9]{6,14}$/, 'An international number (E.164), e.g. +34600111222')
  .transform((v) => `+${v.replace(/^\+/, '')}`)
  .meta({ example: '+34600111222' });

export const Booking = z.object({
  id: z.string().meta({ example: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  status: BookingStatus,
  customer: z.object({
    name: z.string(),
    email: z.string().nullable().optional(),
    phone: z.string().nullable().optional(),
  }),
  service: z.string().nullable(),
  start_at: Timestamp,
  end_at: Timestamp,
  notes: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  cancellation_reason: z.string().nullable(),
  service_id: z.string().nullable().meta({ description: 'The service booked (null: a free-form booking)' }),
  resource_id: z
    .string()
    .nullable()
    .meta({ description: 'The resource it holds (null: a free-form booking)' }),
  hold_expires_at: Timestamp.nullable().meta({
    description: 'A pending booking not confirmed by then becomes expired and frees its slot',
  }),
  payment: z
    .object({
      id: z.string().meta({ example: 'pay_01JD3XK2M8Q4V6T1R9S7W3Y5Z0' }),
      checkout_url: z.string().nullable().meta({
        description:
          'Where the customer pays: the Stripe Checkout page of a paid service’s booking (null for a manual payment)',
        example: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4',
      }),
    })
    .nullable()
    .meta({
      description:
        'The booking’s payment (its latest, when several were recorded), null when it has none. A booking of a ' +
        'service with payment deposit or full gets a pending Stripe payment when it is created: send the customer ' +
        'to checkout_url; the booking is confirmed when Stripe reports the payment (GET /payments/{id} for its ' +
        'status, amount and refunds).',
    }),
  conversation_id: z.string().nullable().meta({
    description: 'The WhatsApp conversation it was booked in (a tap on an offer of times), null otherwise',
  }),
  attendance_confirmed_at: Timestamp.nullable().meta({
    description: 'When the customer confirmed they will come (a reminder’s quick reply on WhatsApp)',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const BookingListQuery = ListQuery.extend({
  status: BookingStatus.optional(),
  from: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Bookings starting at or after this time' }),
  to: z.iso.datetime({ offset: true }).optional().meta({ description: 'Bookings starting before this time' }),
  customer_email: z.string().email().optional(),
  customer_phone: z
    .string()
    .regex(/^\+?[0-9]{5,20}$/, 'Digits, optionally with a leading +')
    .optional()
    .meta({ description: 'Bookings whose customer has this number (compared by its digits)' }),
  service_id: z.string().min(1).max(64).optional(),
  resource_id: z.string().min(1).max(64).optional(),
});

const when = z.iso
  .datetime({ offset: true })
  .meta({ description: 'RFC 3339 timestamp (any offset; stored and returned in UTC)' });
const text = (max: number) => z.string().trim().min(1).max(max);
const Metadata = z
  .record(z.string().max(40), z.unknown())
  .refine((m) => Object.keys(m).length <= 50, 'At most 50 keys')
  .refine((m) => JSON.stringify(m).length <= 8192, 'At most 8 KiB of JSON')
  .meta({ description: 'Your own key/value data (at most 50 keys, 8 KiB of JSON)' });

const Customer = z.object({
  name: text(200),
  email: z.string().trim().email().max(LIMITS.email).optional().nullable(),
  phone: PhoneNumber.optional().nullable(),
});

const endsAfterStart = (b: { start_at?: string; end_at?: string }) =>
  !b.start_at || !b.end_at || new Date(b.end_at).getTime() > new Date(b.start_at).getTime();

const holdUntil = when.meta({
  description:
    'A hold: the booking stays pending until then and expires (freeing its slot) unless confirmed; in the future, ' +
    'at most 24 h ahead',
});

export const CreateBookingInput = z
  .object({
    customer: Customer,
    service_id: z.string().min(1).max(64).optional().meta({
      description:
        'Book a service: end_at follows from its duration (sending end_at is a 422), the slot is checked',
    }),
    resource_id: z.string().min(1).max(64).optional().meta({
      description:
        'With service_id: this resource of the service (else the free one with the fewest bookings that day)',
    }),
    service: text(200)
      .optional()
      .nullable()
      .meta({ description: 'Free-form bookings: a label for what is booked' }),
    start_at: when,
    end_at: when.optional().meta({ description: 'Required without service_id; never with it' }),
    notes: z.string().max(5000).optional().nullable(),
    metadata: Metadata.optional().nullable(),
    hold_expires_at: holdUntil.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.service_id && b.end_at !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['end_at'],
        message: 'Follows from the service duration: do not send it',
      });
    if (!b.service_id && b.end_at === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['end_at'],
        message: 'Required for a booking without service_id',
      });
    if (!b.service_id && b.resource_id !== undefined)
      ctx.addIssue({ code: 'custom', path: ['resource_id'], message: 'Only with service_id' });
    if (b.service_id && b.service != null)
      ctx.addIssue({
        code: 'custom',
        path: ['service'],
        message: 'Not with service_id (the service names it)',
      });
  })
  .refine(endsAfterStart, { path: ['end_at'], message: 'Must be after start_at' });

export const RescheduleBookingInput = z.object({
  start_at: when,
  resource_id: z.string().min(1).max(64).optional().meta({
    description:
      'Move to this resource of the service (else it keeps its own when free, or is placed like a new booking)',
  }),
});

export const UpdateBookingInput = z
  .object({
    customer: Customer.partial().optional(),
    service: text(200).optional().nullable(),
    start_at: when.optional(),
    end_at: when.optional(),
    notes: z.string().max(5000).optional().nullable(),
    metadata: Metadata.optional().nullable(),
  })
  .refine(endsAfterStart, { path: ['end_at'], message: 'Must be after start_at' });

export const CancelBookingInput = z.object({
  reason: z.string().trim().min(1).max(LIMITS.cancellationReason).optional(),
});

export type CreateBookingInput = z.output<typeof CreateBookingInput>;
export type UpdateBookingInput = z.output<typeof UpdateBookingInput>;
export type CancelBookingInput = z.output<typeof CancelBookingInput>;
export type RescheduleBookingInput = z.output<typeof RescheduleBookingInput>;
