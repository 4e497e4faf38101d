// A booking reminder (its timer, server/timers): the service's WhatsApp template, with body
// parameters customer name, service name and start in the resource's zone, sent through the existing
// sending path (server/domain/conversations/send-message.ts) in the conversation with that contact on
// the reminder's channel (started if there is none). The timer is marked fired, and the message stored
// `queued`, in one transaction; the send follows its commit. So a reminder goes out at most once: a
// crash between the two leaves the message queued, which the interrupted-send job fails as unknown.
// booking.reminder.sent is recorded by the sending path when WhatsApp accepts the message (the
// message carries reminder_booking_id), also when Meta's rate limit delayed it.
import { formatDateTime } from '@/server/client-safe/time-format';
import { lockKey } from '@/server/db/advisory-lock';
import { transaction } from '@/server/db/unit-of-work';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { attemptSend, queueOutboundMessage } from '@/server/domain/conversations/send-message';
import { serializeConversation } from '@/server/domain/conversations/serialize';
import { newChoiceId } from '@/server/domain/offers/choice-id';
import { remindersOf } from '@/server/domain/services/serialize';
import { newId } from '@/server/lib/ids';
import { type DueTimer, markFired } from '@/server/timers/plan';
import { recordEvent } from '@/server/webhooks/outbox';

export async function sendBookingReminder(
  timer: DueTimer,
): Promise<'sent' | 'queued' | 'failed' | 'nothing' | 'stale'> {
  const ctx = operationContext(timer.tenantId, SYSTEM_ACTOR);
  const prepared = await transaction(ctx, async (tx) => {
    const db = await tx.orm();
    if (!(await markFired(tx, timer))) return 'stale' as const;
    const booking = await db.booking.findUnique({ where: { id: timer.subjectId } });
    if (booking?.status !== 'confirmed' || !booking.customerPhone || !booking.serviceId)
      return 'nothing' as const;
    const service = await db.service.findUnique({ where: { id: booking.serviceId } });
    const reminder = service ? remindersOf(service)[Number(timer.key)] : undefined;
    // A plan for another start or another reminder list is stale (the next sync re-plans it).
    if (!service || !reminder) return 'nothing' as const;
    if (booking.startAt.getTime() - reminder.before_minutes * 60_000 !== timer.dueAt.getTime())
      return 'nothing' as const;
    const channel = await db.channel.findUnique({ where: { id: reminder.channel_id } });
    if (channel?.type !== 'whatsapp') return 'nothing' as const;
    const resource = booking.resourceId
      ? await db.resource.findUnique({ where: { id: booking.resourceId } })
      : null;
    const phone = booking.customerPhone.replace(/^\+/, ''); // WhatsApp's wa_id: digits only
    // One conversation per contact and channel, as inbound messages keep it (same lock).
    await lockKey(tx, `wa:${timer.tenantId}:${channel.id}:${phone}`);
    let conversation = await db.conversation.findFirst({
      where: { channelId: channel.id, contactPhone: phone },
      orderBy: { id: 'desc' },
    });
    if (!conversation) {
      conversation = await db.conversation.create({
        data: {
          id: newId('conversation'),
          tenantId: timer.tenantId,
          channel: 'whatsapp',
          channelId: channel.id,
          contactPhone: phone,
          contactName: booking.customerName,
        },
      });
      await recordEvent(tx, {
        tenantId: timer.tenantId,
        type: 'conversation.created',
        object: serializeConversation(conversation),
      });
    }
    const text = (value: string) => ({ type: 'text', text: value });
    // A reminder that asks: its three quick-reply buttons carry choices the customer's tap names.
    const asks = reminder.ask
      ? (['attend', 'reschedule', 'cancel'] as const).map((kind) => ({ id: newChoiceId(), kind }))
      : [];
    if (asks.length > 0) {
      await db.choice.createMany({
        data: asks.map((a) => ({
          id: a.id,
          tenantId: timer.tenantId,
          conversationId: conversation.id,
          kind: a.kind,
          bookingId: booking.id,
        })),
      });
    }
    const message = await queueOutboundMessage(db, {
      tenantId: timer.tenantId,
      conversationId: conversation.id,
      reminderBookingId: booking.id,
      content: {
        type: 'template',
        template: {
          name: reminder.template.name,
          language: reminder.template.language,
          components: [
            {
              type: 'body',
              parameters: [
                text(booking.customerName),
                text(service.name),
                text(formatDateTime(booking.startAt, resource?.timeZone ?? 'UTC')),
              ],
            },
            ...asks.map((a, index) => ({
              type: 'button',
              sub_type: 'quick_reply',
              index: String(index),
              parameters: [{ type: 'payload', payload: a.id }],
            })),
          ],
        },
      },
    });
    return { message, conversation };
  });
  if (typeof prepared === 'string') return prepared;
  // The existing sending path; it records booking.reminder.sent in the transaction that marks the
  // message sent (now, or when the scheduled-send job retries after Meta's rate limit).
  const sent = await attemptSend(ctx, prepared.message, prepared.conversation);
  return sent.status === 'sent' ? 'sent' : sent.status === 'queued' ? 'queued' : 'failed';
}
