import type { Conversation, Message, Prisma } from '@/server/db/generated/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { assertReachableConversation } from '@/server/domain/assistant-sessions/customer-scope';
import { recordToolCall } from '@/server/domain/audit/record-audit';
import { presentBooking } from '@/server/domain/bookings/serialize';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { logger } from '@/server/log';
import { decryptSecret } from '@/server/security/secret-box';
import { recordEvent } from '@/server/webhooks/outbox';
import { type OutboundContent, type SendResult, sendWhatsAppMessage } from '@/server/whatsapp/graph-client';
import { type Interactive, interactiveProblem, interactiveText } from '@/server/whatsapp/interactive';
import { planConversationTimers } from './conversation-timers';
import type { SendMessageInput } from './schemas';
import { serializeMessage } from './serialize';

/** Meta's answer when the customer service window is closed (a template is needed). */
const WINDOW_CLOSED_CODE = '(#131047)';

/**
 * Waits before each new try of a send Meta refused with its rate limit (130429): the message stays
 * `queued` meanwhile and the `send-scheduled-messages` job sends it again. After the last wait it
 * fails.
 */
export const RATE_LIMIT_BACKOFF_MS = [2, 4, 8, 16, 32, 64, 128, 256, 512].map((s) => s * 1000);

/**
 * An outbound message: stored `queued` first (so it exists whatever happens next), then sent
 * through the conversation's WhatsApp channel. It ends `sent` with the provider's id, or `failed`
 * with the reason (provider error, timeout, or no configured sender); never silently dropped; a send
 * Meta refuses for its rate limit stays `queued` and is tried again later. On WhatsApp only a
 * template may be sent while the customer service window is closed: anything else is refused (422)
 * before anything is stored or sent. Under an assistant session only its own conversation is found,
 * and nothing is sent while a person handles it (409 handled_by_human). Emits
 * conversation.message.sent or conversation.message.failed.
 */
export async function sendMessage(ctx: OperationContext, input: { id: string } & SendMessageInput) {
  const { tenantId } = ctx;
  const content = outboundContent(input);
  assertReachableConversation(ctx, input.id);
  const { conversation, message } = await transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const conversation = await db.conversation.findUnique({ where: { id: input.id } });
    if (!conversation) throw Errors.notFound('Conversation');
    if (ctx.actingFor && conversation.handledBy === 'human') throw Errors.handledByHuman();
    const now = new Date();
    if (
      conversation.channel === 'whatsapp' &&
      content.type !== 'template' &&
      !windowOpen(conversation, now)
    ) {
      throw Errors.outsideWindow(
        conversation.windowExpiresAt
          ? `The customer service window closed at ${conversation.windowExpiresAt.toISOString()}: only a template can be sent until the customer writes again`
          : 'The customer has not written on WhatsApp yet: only a template can be sent',
      );
    }
    const message = await db.message.create({
      data: {
        id: newId('message'),
        tenantId,
        conversationId: conversation.id,
        direction: 'outbound',
        ...storedContent(content),
        status: 'queued',
        createdAt: now,
      },
    });
    await db.conversation.update({ where: { id: conversation.id }, data: { lastMessageAt: now } });
    // The message exists from here on, whatever its send makes of it: the assistant's call is recorded now.
    await recordToolCall(tx, ctx, { type: 'conversation', id: conversation.id });
    return { conversation, message };
  });
  return attemptSend(ctx, message, conversation);
}

export function windowOpen(conversation: Pick<Conversation, 'windowExpiresAt'>, now = new Date()): boolean {
  return conversation.windowExpiresAt !== null && conversation.windowExpiresAt > now;
}

/**
 * Sends a `queued` message once and records what came of it. Called right after the message is
 * stored (with its conversation, already read), and again by the job for messages Meta's rate limit
 * held back.
 */
export async function attemptSend(ctx: OperationContext, message: Message, loaded?: Conversation) {
  const { db, tenantId } = ctx;
  const conversation =
    loaded ?? (await db.conversation.findUniqueOrThrow({ where: { id: message.conversationId } }));
  const result = await deliver(db, conversation, contentOf(message));
  if (!result.ok)
    logger().warn(
      {
        tenant_id: tenantId,
        message_id: message.id,
        reason: result.reason,
        rate_limited: !!result.rateLimited,
      },
      'outbound message not sent',
    );

  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const wait = !result.ok && result.rateLimited ? RATE_LIMIT_BACKOFF_MS[message.sendAttempts] : undefined;
    if (wait !== undefined) {
      const [row] = await db.message.updateManyAndReturn({
        where: { id: message.id, status: 'queued' },
        data: { sendAttempts: message.sendAttempts + 1, nextSendAt: new Date(Date.now() + wait) },
      });
      return serializeMessage(row ?? (await db.message.findUniqueOrThrow({ where: { id: message.id } })));
    }
    const [row] = await db.message.updateManyAndReturn({
      where: { id: message.id, status: 'queued' },
      data: result.ok
        ? { status: 'sent', externalId: result.externalId, nextSendAt: null }
        : { status: 'failed', failureReason: failureReason(result), nextSendAt: null },
    });
    if (!row) return serializeMessage(await db.message.findUniqueOrThrow({ where: { id: message.id } }));
    // Meta says the window is closed: believe it, so the next reply offers a template.
    if (!result.ok && result.reason.includes(WINDOW_CLOSED_CODE) && windowOpen(conversation)) {
      const closed = await db.conversation.update({
        where: { id: conversation.id },
        data: { windowExpiresAt: new Date() },
      });
      await planConversationTimers(tx, closed);
    }
    const object = serializeMessage(row);
    await recordEvent(tx, {
      tenantId,
      type: result.ok ? 'conversation.message.sent' : 'conversation.message.failed',
      object,
    });
    // A booking reminder reached WhatsApp (on its first send, or a later one after Meta's rate limit).
    if (result.ok && row.reminderBookingId) {
      const booking = await db.booking.findUnique({ where: { id: row.reminderBookingId } });
      if (booking)
        await recordEvent(tx, {
          tenantId,
          type: 'booking.reminder.sent',
          object: await presentBooking(db, booking),
        });
    }
    return object;
  });
}

function failureReason(result: Extract<SendResult, { ok: false }>): string {
  return result.rateLimited
    ? `WhatsApp kept refusing the message for its rate limit over ${RATE_LIMIT_BACKOFF_MS.length + 1} tries: ${result.reason}`
    : result.reason;
}

function outboundContent(input: SendMessageInput): OutboundContent {
  if (input.template) return { type: 'template', template: input.template };
  if (input.media) return { type: 'media', media: input.media };
  return { type: 'text', text: input.text as string };
}

/**
 * Stores an outbound message `queued` in the caller's transaction (a booking reminder, server/timers),
 * for `attemptSend` to send after commit. No window check: callers send templates only.
 */
export async function queueOutboundMessage(
  tx: TenantTx,
  input: {
    tenantId: string;
    conversationId: string;
    content: OutboundContent;
    now?: Date;
    /** A booking reminder: booking.reminder.sent is recorded when WhatsApp accepts the message. */
    reminderBookingId?: string;
  },
): Promise<Message> {
  const now = input.now ?? new Date();
  const message = await tx.message.create({
    data: {
      id: newId('message'),
      tenantId: input.tenantId,
      conversationId: input.conversationId,
      direction: 'outbound',
      ...storedContent(input.content),
      status: 'queued',
      reminderBookingId: input.reminderBookingId ?? null,
      createdAt: now,
    },
  });
  await tx.conversation.update({ where: { id: input.conversationId }, data: { lastMessageAt: now } });
  return message;
}

/** The columns an outbound message keeps: its kind, a readable text, and the template or file. */
function storedContent(content: OutboundContent): {
  type: string;
  text: string;
  template?: Prisma.InputJsonValue;
  media?: Prisma.InputJsonValue;
  interactive?: Prisma.InputJsonValue;
} {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: content.text };
    case 'interactive':
      return {
        type: 'interactive',
        text: interactiveText(content.interactive),
        interactive: content.interactive as Prisma.InputJsonValue,
      };
    case 'template':
      return {
        type: 'template',
        text: `[template: ${content.template.name}]`,
        template: content.template as Prisma.InputJsonValue,
      };
    case 'media':
      return {
        type: content.media.type,
        text:
          content.media.caption ??
          `[${content.media.type}${content.media.filename ? `: ${content.media.filename}` : ''}]`,
        media: content.media,
      };
  }
}

/** The stored message back as what to send (the inverse of `storedContent`). */
function contentOf(message: Message): OutboundContent {
  if (message.type === 'template' && message.template)
    return {
      type: 'template',
      template: message.template as Extract<OutboundContent, { type: 'template' }>['template'],
    };
  if (message.media)
    return { type: 'media', media: message.media as Extract<OutboundContent, { type: 'media' }>['media'] };
  if (message.type === 'interactive' && message.interactive)
    return { type: 'interactive', interactive: message.interactive as Interactive };
  return { type: 'text', text: message.text };
}

async function deliver(
  db: OperationContext['db'],
  conversation: Conversation,
  content: OutboundContent,
): Promise<SendResult> {
  if (conversation.channel !== 'whatsapp') {
    return { ok: false, reason: `No sender is configured for ${conversation.channel} conversations` };
  }
  const channel = conversation.channelId
    ? await db.channel.findUnique({ where: { id: conversation.channelId } })
    : null;
  if (!channel?.phoneNumberId || !channel.accessTokenEnc) {
    return { ok: false, reason: 'No WhatsApp channel is configured for this conversation' };
  }
  if (!conversation.contactPhone) return { ok: false, reason: 'The contact has no phone number' };
  // Meta refuses an interactive message over its limits: it fails here, with the reason, unsent.
  const problem = content.type === 'interactive' ? interactiveProblem(content.interactive) : null;
  if (problem) return { ok: false, reason: problem };
  let accessToken: string;
  try {
    accessToken = decryptSecret(channel.accessTokenEnc);
  } catch {
    return { ok: false, reason: 'The channel access token cannot be decrypted (was SECRETS_KEY changed?)' };
  }
  return sendWhatsAppMessage({
    phoneNumberId: channel.phoneNumberId,
    accessToken,
    to: conversation.contactPhone,
    content,
  });
}
