import type { z } from 'zod';
import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import type { CreateConversationInput } from '@/server/domain/conversations/schemas';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { recordEvent } from '@/server/webhooks/outbox';
import { serializeConversation } from './serialize';

/**
 * Starts a conversation from the API (inbound WhatsApp traffic creates its own). A WhatsApp
 * conversation needs one of the tenant's WhatsApp channels and the contact's phone number;
 * web and sms conversations have no registered sender here. Emits conversation.created.
 */
export function createConversation(ctx: OperationContext, input: z.output<typeof CreateConversationInput>) {
  const { tenantId } = ctx;
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    if (input.channel === 'whatsapp') {
      const problems = [];
      if (!input.contact.phone)
        problems.push({ path: 'contact.phone', message: 'Required for a WhatsApp conversation' });
      if (!input.channel_id)
        problems.push({ path: 'channel_id', message: 'Required for a WhatsApp conversation' });
      else {
        const channel = await db.channel.findUnique({
          where: { id: input.channel_id },
          select: { type: true },
        });
        if (channel?.type !== 'whatsapp')
          problems.push({ path: 'channel_id', message: 'No such WhatsApp channel' });
      }
      if (problems.length) throw Errors.validation(problems);
    } else if (input.channel_id) {
      throw Errors.validation([
        { path: 'channel_id', message: 'Only WhatsApp conversations run on a registered channel' },
      ]);
    }
    const row = await db.conversation.create({
      data: {
        id: newId('conversation'),
        tenantId,
        channel: input.channel,
        channelId: input.channel_id ?? null,
        contactName: input.contact.name ?? null,
        // WhatsApp identifies contacts by wa_id: digits without the +.
        contactPhone:
          input.contact.phone && input.channel === 'whatsapp'
            ? input.contact.phone.replace(/^\+/, '')
            : (input.contact.phone ?? null),
      },
    });
    const object = serializeConversation(row);
    await recordEvent(tx, { tenantId, type: 'conversation.created', object });
    return object;
  });
}
