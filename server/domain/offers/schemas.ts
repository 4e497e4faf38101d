import { z } from 'zod';
import { Timestamp } from '@/server/lib/schemas';

export const MAX_OFFER_DAYS = 7;

export const OfferInput = z.object({
  service_id: z.string().min(1).max(64).meta({ description: 'The service whose free times are offered' }),
  date: z.iso
    .date()
    .optional()
    .meta({ description: 'The first local date offered, YYYY-MM-DD in time_zone (default: today there)' }),
  days: z
    .number()
    .int()
    .min(1)
    .max(MAX_OFFER_DAYS)
    .default(3)
    .meta({ description: `How many days from date (1 … ${MAX_OFFER_DAYS}, default 3)` }),
  time_zone: z.string().min(1).max(64).optional().meta({
    description: 'IANA zone the dates and times are shown in (default: the service’s first resource’s)',
    example: 'Europe/Madrid',
  }),
  resource_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'Only this resource of the service' }),
  booking_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({
      description:
        'Offer times to move this booking to (a pending or confirmed booking of the conversation’s contact): ' +
        'the customer’s tap reschedules it',
    }),
});

export type OfferInput = z.output<typeof OfferInput>;

export const OfferOption = z.object({
  id: z.string().meta({
    description: 'The row id sent in the list: what WhatsApp sends back when the customer taps it (random)',
  }),
  start_at: Timestamp,
  end_at: Timestamp,
});

export const Offer = z
  .object({
    id: z.string().meta({ example: 'ofr_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
    conversation_id: z.string(),
    service_id: z.string(),
    booking_id: z.string().nullable().meta({ description: 'The booking a tap moves (null: a tap books)' }),
    message_id: z.string().meta({ description: 'The interactive list message that carries it' }),
    time_zone: z.string().meta({ description: 'The zone its days and times are shown in' }),
    expires_at: Timestamp.meta({ description: 'After this, a tap gets a new offer instead (OFFER_TTL)' }),
    options: z.array(OfferOption),
  })
  .meta({ id: 'Offer' });

export type OfferResource = z.output<typeof Offer>;
