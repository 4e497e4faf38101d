import { z } from 'zod';
import { Timestamp } from '@/server/lib/schemas';

const date = z.iso.date().meta({ description: 'A local date YYYY-MM-DD in time_zone' });

export const SlotQuery = z.object({
  service_id: z.string().min(1).max(64),
  start: date.meta({ description: 'First local date (inclusive)', example: '2027-03-01' }),
  end: date.meta({
    description: 'Last local date (inclusive); at most 31 days from start',
    example: '2027-03-07',
  }),
  time_zone: z
    .string()
    .max(64)
    .default('UTC')
    .meta({ description: 'IANA zone the dates are read in (default UTC)', example: 'Europe/Madrid' }),
  resource_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'Only this resource of the service' }),
  reschedule_booking_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({
      description:
        'Offer times to move this booking to (POST /bookings/{id}/reschedule): its own blocked interval does ' +
        'not count against it, as the reschedule itself ignores it. 422 when it names no booking of this tenant.',
      example: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
    }),
});

export const FreeSlot = z.object({
  start: Timestamp,
  end: Timestamp,
  resource_ids: z.array(z.string()).meta({ description: 'The service’s resources free at that start' }),
});

export const SlotList = z.object({
  service_id: z.string(),
  time_zone: z.string(),
  truncated: z.boolean().meta({
    description:
      'true when the free slots of the range did not fit one answer (at most 1 MiB; 64 KiB for the assistant’s ' +
      'find_slots): days then lists the dates up to the cut only, the last one possibly incomplete; ask again ' +
      'from that date for the rest',
    example: false,
  }),
  days: z.record(z.string(), z.array(FreeSlot)).meta({
    description:
      'Every local date of the range (up to the cut when truncated), each with its free slots in order (an ' +
      'empty list when none)',
    example: {
      '2027-03-01': [
        {
          start: '2027-03-01T08:00:00.000Z',
          end: '2027-03-01T08:45:00.000Z',
          resource_ids: ['res_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q'],
        },
      ],
      '2027-03-02': [],
    },
  }),
});
