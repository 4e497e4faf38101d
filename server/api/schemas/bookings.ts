import { z } from 'zod';
import { ListQuery, Timestamp } from './common';

export const BookingStatus = z.enum(['pending', 'confirmed', 'cancelled', 'completed']);

export const Booking = z
  .object({
    id: z.string().meta({ example: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
    status: BookingStatus,
    customer: z.object({ name: z.string(), email: z.string().nullable().optional(), phone: z.string().nullable().optional() }),
    service: z.string().nullable(),
    start_at: Timestamp,
    end_at: Timestamp,
    notes: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    cancellation_reason: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Booking' });

export const BookingListQuery = ListQuery.extend({
  status: BookingStatus.optional(),
  from: z.iso.datetime({ offset: true }).optional().meta({ description: 'Bookings starting at or after this time' }),
  to: z.iso.datetime({ offset: true }).optional().meta({ description: 'Bookings starting before this time' }),
  customer_email: z.string().email().optional(),
});
