import { z } from 'zod';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const Channel = z.object({
  id: z.string().meta({ example: 'chn_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  type: z.enum(['whatsapp', 'web', 'sms']),
  phone_number_id: z.string().nullable(),
  display_name: z.string().nullable(),
  created_at: Timestamp,
});

export const CreateChannelInput = z.object({
  type: z.literal('whatsapp'),
  phone_number_id: z
    .string()
    .regex(/^[0-9]{1,32}$/, 'The WhatsApp Cloud API phone number id (digits)')
    .meta({ example: '106540352242922' }),
  access_token: z.string().min(1).max(4096).meta({ description: 'Cloud API access token; write-only' }),
  display_name: z.string().trim().min(1).max(200).optional(),
});

export const ChannelListQuery = ListQuery;

export type CreateChannelInput = z.output<typeof CreateChannelInput>;
