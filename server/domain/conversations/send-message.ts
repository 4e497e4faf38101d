import type { Conversation } from '@/server/db/generated/client';
import type { OperationContext } from '@/server/domain/context';
import { recordEvent } from '@/server/events/record';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { logger } from '@/server/log';
import { decryptSecret } from '@/server/security/secret-box';
import { type SendResult, sendWhatsAppText } from '@/server/whatsapp/graph-client';
import { serializeMessage } from './serialize';

/**
 * An outbound message: stored `queued` first (so it exists whatever happens next), then sent
 * through the conversation's WhatsApp channel. It ends `sent` with the provider's id, or `failed`
 * with the reason (provider error, timeout, or no configured sender); never silently dropped.
 * Emits conversation.message.sent or conversation.message.failed.
 */
export async function sendMessage(ctx: OperationContext, input: { id: string; text: string }) {
  const { db, tenantId } = ctx;
  const { conversation, message } = await db.$transaction(async (tx) => {
    const conversation = await tx.conversation.findUnique({ where: { id: input.id } });
    if (!conversation) throw Errors.notFound('Conversation');
    const now = new Date();
    const message = await tx.message.create({
      data: {
        id: newId('message'),
        tenantId,
        conversationId: conversation.id,
        direction: 'outbound',
        text: input.text,
        status: 'queued',
        createdAt: now,
      },
    });
    await tx.conversation.update({ where: { id: conversation.id }, data: { lastMessageAt: now } });
    return { conversation, message };
  });

  const result = await deliver(db, conversation, input.text);
  if (!result.ok)
    logger().warn(
      { tenant_id: tenantId, message_id: message.id, reason: result.reason },
      'outbound message failed',
    );

  return db.$transaction(async (tx) => {
    const [row] = await tx.message.updateManyAndReturn({
      where: { id: message.id, status: 'queued' },
      data: result.ok
        ? { status: 'sent', externalId: result.externalId }
        : { status: 'failed', failureReason: result.reason },
    });
    if (!row) return serializeMessage(await tx.message.findUniqueOrThrow({ where: { id: message.id } }));
    const object = serializeMessage(row);
    await recordEvent(tx, {
      tenantId,
      type: result.ok ? 'conversation.message.sent' : 'conversation.message.failed',
      object,
    });
    return object;
  });
}

async function deliver(
  db: OperationContext['db'],
  conversation: Conversation,
  text: string,
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
  let accessToken: string;
  try {
    accessToken = decryptSecret(channel.accessTokenEnc);
  } catch {
    return { ok: false, reason: 'The channel access token cannot be decrypted (was SECRETS_KEY changed?)' };
  }
  return sendWhatsAppText({
    phoneNumberId: channel.phoneNumberId,
    accessToken,
    to: conversation.contactPhone,
    text,
  });
}
