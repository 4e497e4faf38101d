import { lockKey } from '@/server/db/advisory-lock';
import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { newId } from '@/server/lib/ids';
import { planTimers } from '@/server/timers/plan';
import { recordEvent } from '@/server/webhooks/outbox';
import { planConversationTimers } from './conversation-timers';
import { type StoredReply, serializeConversation, serializeMessage } from './serialize';

class DuplicateMessage extends Error {}

export interface InboundMessageInput {
  channelId: string;
  /** The contact's WhatsApp id (wa_id, digits). */
  from: string;
  contactName?: string | null;
  /** The provider's message id: stored inbound messages are unique by it per tenant. */
  externalId: string;
  /** WhatsApp's message type (text, image, location, reaction, …). */
  type?: string;
  /** A readable text for any kind (messageText in server/whatsapp/payload.ts). */
  text: string;
  /** An image, video, audio, document or sticker: the file's id at Meta and what it is. */
  media?: { type: string; id: string; mime_type?: string; caption?: string; filename?: string } | null;
  /** When the customer sent it (Meta's timestamp); the customer service window runs 24 h from it. */
  sentAt?: Date;
  /**
   * A tap on a list row, a reply button or a quick reply the service sent: stored with the message, and
   * answered by the background runtime (a `conversation.tap` timer, due at once: server/domain/offers/).
   */
  tap?: StoredReply | null;
}

export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Stores one inbound WhatsApp message. Finds the contact's conversation on that channel or starts
 * one (conversation.created); a resolved conversation is reopened for a fresh round with the AI.
 * A message id seen before is a provider retry: nothing is stored or emitted twice.
 */
export async function receiveMessage(
  ctx: OperationContext,
  input: InboundMessageInput,
): Promise<
  | { duplicate: true }
  | { duplicate: false; conversationId: string; messageId: string; createdConversation: boolean }
> {
  const { tenantId } = ctx;
  const seen = await ctx.db.message.findFirst({
    where: { externalId: input.externalId },
    select: { id: true },
  });
  if (seen) return { duplicate: true };
  try {
    return await transaction(ctx, async (tx) => {
      const db = await tx.orm();
      // One conversation per contact and channel even when two of its messages arrive at once.
      await lockKey(tx, `wa:${tenantId}:${input.channelId}:${input.from}`);
      const now = new Date();
      const windowExpiresAt = new Date((input.sentAt ?? now).getTime() + CUSTOMER_SERVICE_WINDOW_MS);
      let conversation = await db.conversation.findFirst({
        where: { channelId: input.channelId, contactPhone: input.from },
        orderBy: { id: 'desc' },
      });
      const createdConversation = !conversation;
      if (!conversation) {
        conversation = await db.conversation.create({
          data: {
            id: newId('conversation'),
            tenantId,
            channel: 'whatsapp',
            channelId: input.channelId,
            contactPhone: input.from,
            contactName: input.contactName ?? null,
            lastMessageAt: now,
            windowExpiresAt,
          },
        });
        await recordEvent(tx, {
          tenantId,
          type: 'conversation.created',
          object: serializeConversation(conversation),
        });
      }
      const messageId = newId('message');
      const inserted = await db.message.createMany({
        data: [
          {
            id: messageId,
            tenantId,
            conversationId: conversation.id,
            direction: 'inbound',
            type: input.type ?? 'text',
            text: input.text,
            ...(input.media ? { media: input.media } : {}),
            ...(input.tap ? { interactive: { ...input.tap } } : {}),
            status: 'received',
            externalId: input.externalId,
          },
        ],
        skipDuplicates: true,
      });
      // A concurrent delivery of the same message won: roll back (including a conversation we started).
      if (inserted.count === 0) throw new DuplicateMessage();
      if (!createdConversation) {
        await db.conversation.update({
          where: { id: conversation.id },
          data: {
            lastMessageAt: now,
            // Messages may arrive out of order: the window runs from the newest.
            ...(conversation.windowExpiresAt === null || conversation.windowExpiresAt < windowExpiresAt
              ? { windowExpiresAt }
              : {}),
            ...(conversation.contactName === null && input.contactName
              ? { contactName: input.contactName }
              : {}),
            ...(conversation.status === 'resolved'
              ? {
                  status: 'open',
                  handledBy: 'ai',
                  assigneeId: null,
                  handoffReason: null,
                  handoffSummary: null,
                }
              : {}),
          },
        });
      }
      // The window (re)opened, a resolved conversation reopened: its timers follow (conversation-timers.ts).
      await planConversationTimers(
        tx,
        await db.conversation.findUniqueOrThrow({ where: { id: conversation.id } }),
      );
      if (input.tap) {
        await planTimers(tx, {
          subjectId: messageId,
          kinds: ['conversation.tap'],
          plans: [{ kind: 'conversation.tap', dueAt: now }],
          newSubject: true,
        });
      }
      const message = await db.message.findUniqueOrThrow({ where: { id: messageId } });
      await recordEvent(tx, {
        tenantId,
        type: 'conversation.message.received',
        object: serializeMessage(message),
      });
      return { duplicate: false as const, conversationId: conversation.id, messageId, createdConversation };
    });
  } catch (error) {
    if (error instanceof DuplicateMessage) return { duplicate: true };
    throw error;
  }
}
