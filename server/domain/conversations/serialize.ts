import type { z } from 'zod';
import type { Conversation, Message } from '@/server/db/generated/client';
import type { MessageMedia, Template } from './schemas';

// Stored as JSON in the shape of these schemas (written only by send-message and receive-message).
type TemplateResource = z.output<typeof Template>;
type MediaResource = z.output<typeof MessageMedia>;

/** A conversation as the REST API and event payloads show it. */
export function serializeConversation(c: Conversation) {
  return {
    id: c.id,
    channel: c.channel,
    channel_id: c.channelId,
    contact: { name: c.contactName, phone: c.contactPhone },
    status: c.status,
    handled_by: c.handledBy,
    assignee_id: c.assigneeId,
    handoff_reason: c.handoffReason,
    handoff_summary: c.handoffSummary,
    handoff_requested_at: c.handoffAt?.toISOString() ?? null,
    handoff_overdue_at: c.handoffOverdueAt?.toISOString() ?? null,
    last_message_at: c.lastMessageAt?.toISOString() ?? null,
    window_expires_at: c.windowExpiresAt?.toISOString() ?? null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** A message row, from Prisma or raw SQL (whose JSON columns are untyped). */
type MessageRow = Omit<Message, 'template' | 'media'> & { template: unknown; media: unknown };

/** A message as the REST API and event payloads show it. */
export function serializeMessage(m: MessageRow) {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    direction: m.direction,
    type: m.type,
    text: m.text,
    template: (m.template ?? null) as TemplateResource | null,
    media: (m.media ?? null) as MediaResource | null,
    status: m.status,
    external_id: m.externalId,
    failure_reason: m.failureReason,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

export type ConversationResource = ReturnType<typeof serializeConversation>;
export type MessageResource = ReturnType<typeof serializeMessage>;
