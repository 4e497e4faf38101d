import { z } from 'zod';
import { LIMITS } from '@/server/client-safe/limits';
import { BOOKING_STATUSES } from '@/server/client-safe/statuses';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const BookingStatus = z.enum(BOOKING_STATUSES);

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
  phone: z.string().trim().min(3).max(40).optional().nullable(),
});

const endsAfterStart = (b: { start_at?: string; end_at?: string }) =>
  !b.start_at || !b.end_at || new Date(b.end_at).getTime() > new Date(b.start_at).getTime();

export const CreateBookingInput = z
  .object({
    customer: Customer,
    service: text(200).optional().nullable(),
    start_at: when,
    end_at: when,
    notes: z.string().max(5000).optional().nullable(),
    metadata: Metadata.optional().nullable(),
  })
  .refine(endsAfterStart, { path: ['end_at'], message: 'Must be after start_at' });

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
