// Assistant sessions (docs/decisions.md "Assistant sessions"): what minting one accepts and answers.
import { z } from 'zod';
import { Timestamp } from '@/server/lib/schemas';

export const SESSION_TTL = { min: 60, max: 3600, default: 900 } as const;

export const CreateAssistantSessionInput = z.object({
  ttl_seconds: z
    .number()
    .int()
    .min(SESSION_TTL.min)
    .max(SESSION_TTL.max)
    .default(SESSION_TTL.default)
    .meta({ description: 'How long the token works, in seconds: 60..3600, default 900 (15 minutes)' }),
});
export type CreateAssistantSessionInput = z.output<typeof CreateAssistantSessionInput>;

export const AssistantSessionWithToken = z.object({
  id: z.string().meta({ example: 'asn_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  token: z.string().meta({
    description:
      'The bearer token (ast_<prefix>_<secret>) for POST /api/v1/mcp with this tenant’s X-Tenant-ID; shown ' +
      'only in this response, stored only as a hash',
    example: 'ast_4fQ9xK2mLp7R_Vb3nT8wZc1yHq6sJd0eGk5uMa9rXo2pLf7iNb4t',
  }),
  conversation_id: z.string().meta({ example: 'cnv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  expires_at: Timestamp,
});
export type AssistantSessionWithToken = z.output<typeof AssistantSessionWithToken>;

/** A booking as the customer-bound tools answer it: never the customer's data, notes or metadata. */
export const CustomerBooking = z.object({
  id: z.string(),
  status: z.enum(['pending', 'confirmed', 'cancelled', 'completed', 'expired', 'no_show']),
  service_id: z.string().nullable(),
  resource_id: z.string().nullable(),
  start_at: Timestamp,
  end_at: Timestamp,
  hold_expires_at: Timestamp.nullable(),
  payment: z
    .object({
      status: z.enum(['pending', 'succeeded', 'failed', 'refunded']),
      checkout_url: z.string().nullable(),
    })
    .optional()
    .meta({ description: 'Only when the booking has a payment: its status and the page to pay on' }),
});
export type CustomerBooking = z.output<typeof CustomerBooking>;

export const CustomerBookingList = z.object({ data: z.array(CustomerBooking) });
