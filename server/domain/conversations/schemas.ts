import { z } from 'zod';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const ConversationStatus = z.enum(['open', 'pending_human', 'resolved']);
export const HandledBy = z.enum(['ai', 'human']);
export const ChannelKind = z.enum(['whatsapp', 'web', 'sms']);

export const Conversation = z.object({
  id: z.string().meta({ example: 'cnv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  channel: ChannelKind,
  channel_id: z
    .string()
    .nullable()
    .meta({ description: 'The registered channel (WhatsApp number) it runs on, if any' }),
  contact: z.object({ name: z.string().nullable(), phone: z.string().nullable() }),
  status: ConversationStatus,
  handled_by: HandledBy,
  assignee_id: z.string().nullable(),
  handoff_reason: z
    .string()
    .nullable()
    .meta({ description: 'Why the AI handed over (kept after assignment)' }),
  handoff_summary: z.string().nullable(),
  last_message_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const MessageStatus = z.enum(['received', 'queued', 'sent', 'delivered', 'read', 'failed']);

export const Message = z.object({
  id: z.string().meta({ example: 'msg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  conversation_id: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  text: z.string(),
  status: MessageStatus,
  external_id: z.string().nullable().meta({ description: 'The provider’s message id (WhatsApp wamid)' }),
  failure_reason: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ConversationListQuery = ListQuery.extend({
  status: ConversationStatus.optional(),
  handled_by: HandledBy.optional(),
  assignee_id: z.string().min(1).max(64).optional(),
});

export const CreateConversationInput = z.object({
  channel: ChannelKind,
  channel_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'Required for whatsapp: a WhatsApp channel of this tenant' }),
  contact: z.object({
    name: z.string().trim().min(1).max(200).optional(),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9]{5,20}$/, 'Digits only, optionally with a leading +')
      .optional(),
  }),
});

export const SendMessageInput = z.object({
  text: z
    .string()
    .trim()
    .min(1)
    .max(4096)
    .meta({ description: 'Plain text, at most 4096 characters (WhatsApp’s limit)' }),
});

export const HandoffInput = z.object({
  reason: z.string().trim().min(1).max(500),
  summary: z.string().trim().min(1).max(5000).optional(),
});

export const AssignInput = z.object({ user_id: z.string().min(1).max(64) });

export type CreateConversationInput = z.output<typeof CreateConversationInput>;
export type SendMessageInput = z.output<typeof SendMessageInput>;
export type HandoffInput = z.output<typeof HandoffInput>;
export type AssignInput = z.output<typeof AssignInput>;
