import type { Conversation, Message } from '@/server/db/generated/client';

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
    last_message_at: c.lastMessageAt?.toISOString() ?? null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** A message as the REST API and event payloads show it. */
export function serializeMessage(m: Message) {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    direction: m.direction,
    text: m.text,
    status: m.status,
    external_id: m.externalId,
    failure_reason: m.failureReason,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

export type ConversationResource = ReturnType<typeof serializeConversation>;
export type MessageResource = ReturnType<typeof serializeMessage>;
