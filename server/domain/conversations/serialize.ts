import type { z } from 'zod';
import type { Conversation, Message } from '@/server/db/generated/client';
import type { Interactive } from '@/server/whatsapp/interactive';
import type { MessageInteractive, MessageMedia, Template } from './schemas';

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
type MessageRow = Omit<Message, 'template' | 'media' | 'interactive'> & {
  template: unknown;
  media: unknown;
  interactive: unknown;
};

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
    interactive: interactiveResource(m.interactive),
    status: m.status,
    external_id: m.externalId,
    failure_reason: m.failureReason,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

export type ConversationResource = ReturnType<typeof serializeConversation>;
export type MessageResource = ReturnType<typeof serializeMessage>;

/** What an inbound tap stores (receive-whatsapp-webhook.ts): which row, button or quick reply it was. */
export interface StoredReply {
  /** A list row, a reply button, or a template's quick-reply button. */
  type: 'list_reply' | 'button_reply' | 'quick_reply';
  id: string;
  title: string;
}

const REPLY_TYPES: readonly string[] = ['list_reply', 'button_reply', 'quick_reply'];
const isReply = (value: object): value is StoredReply => REPLY_TYPES.includes((value as StoredReply).type);

/**
 * The interactive part of a message, one shape for every kind: an outbound list (its sections and
 * rows), reply buttons (one untitled section), a call-to-action link; an inbound tap (`reply`).
 */
function interactiveResource(stored: unknown): z.output<typeof MessageInteractive> | null {
  if (!stored || typeof stored !== 'object') return null;
  if (isReply(stored)) {
    return {
      kind: 'reply',
      body: null,
      sections: [],
      url: null,
      reply: { id: stored.id, title: stored.title },
    };
  }
  const value = stored as Interactive;
  const base = { body: value.body.text, url: null, reply: null };
  if (value.type === 'list') {
    return {
      ...base,
      kind: 'list',
      button: value.action.button,
      sections: value.action.sections.map((section) => ({
        title: section.title ?? null,
        options: section.rows.map((r) => ({ id: r.id, title: r.title, description: r.description ?? null })),
      })),
    };
  }
  if (value.type === 'button') {
    return {
      ...base,
      kind: 'buttons',
      sections: [
        {
          title: null,
          options: value.action.buttons.map((b) => ({
            id: b.reply.id,
            title: b.reply.title,
            description: null,
          })),
        },
      ],
    };
  }
  return {
    ...base,
    kind: 'cta_url',
    button: value.action.parameters.display_text,
    sections: [],
    url: value.action.parameters.url,
  };
}
