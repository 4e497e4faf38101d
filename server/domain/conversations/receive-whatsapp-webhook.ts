// WhatsApp's inbound notifications, as the route hands them over: the raw body and its signature.
// The edge verifies and parses them (server/whatsapp/inbound.ts); each change is then routed by its
// phone_number_id to the tenant that registered the number, and its messages and status receipts
// are applied in that tenant (receive-message.ts, apply-receipt.ts). Stripe's notifications take the
// same path (server/domain/payments/receive-stripe-webhook.ts).
import { findChannelByPhoneNumberId } from '@/server/domain/channels/find-channel-by-number';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { logger } from '@/server/log';
import { verifyWhatsAppWebhook } from '@/server/whatsapp/inbound';
import {
  type ChangeValue,
  messageChanges,
  messageMedia,
  messageTap,
  messageText,
  type StatusReceipt,
} from '@/server/whatsapp/payload';
import { applyReceipt, isReceiptStatus } from './apply-receipt';
import { receiveMessage } from './receive-message';

export interface WebhookOutcome {
  received: number;
  duplicates: number;
  receipts: number;
  ignored: number;
}

/**
 * Verifies one Cloud API notification and applies it. Unknown numbers, and notifications about
 * another kind of object, are logged and acknowledged (Meta would otherwise retry for days). Errors
 * propagate so Meta retries: every step is idempotent.
 */
export async function receiveWhatsAppWebhook(input: {
  rawBody: string;
  signature: string | null;
}): Promise<WebhookOutcome> {
  const payload = verifyWhatsAppWebhook(input.rawBody, input.signature);
  const outcome: WebhookOutcome = { received: 0, duplicates: 0, receipts: 0, ignored: 0 };
  if (payload.object !== 'whatsapp_business_account') {
    logger().warn(
      { object: payload.object },
      'whatsapp webhook for another object type: acknowledged, ignored',
    );
    return outcome;
  }
  const { values, skipped } = messageChanges(payload);
  if (skipped > 0)
    logger().warn({ skipped }, 'whatsapp webhook: changes without the expected shape were ignored');
  for (const value of values) await processChange(value, outcome);
  return outcome;
}

async function processChange(value: ChangeValue, outcome: WebhookOutcome): Promise<void> {
  const phoneNumberId = value.metadata.phone_number_id;
  const channel = await findChannelByPhoneNumberId(phoneNumberId);
  if (!channel) {
    outcome.ignored += (value.messages?.length ?? 0) + (value.statuses?.length ?? 0);
    logger().warn(
      { phone_number_id: phoneNumberId },
      'whatsapp webhook for an unregistered phone_number_id: acknowledged, ignored',
    );
    return;
  }
  const ctx = operationContext(channel.tenantId, SYSTEM_ACTOR);
  for (const message of value.messages ?? []) {
    if (!message) {
      outcome.ignored++;
      logger().warn(
        { phone_number_id: phoneNumberId },
        'whatsapp webhook: a message without id/from/type was ignored',
      );
      continue;
    }
    const contact = value.contacts?.find((c) => c.wa_id === message.from) ?? value.contacts?.[0];
    const result = await receiveMessage(ctx, {
      channelId: channel.id,
      from: message.from,
      contactName: contact?.profile?.name ?? null,
      externalId: message.id,
      type: message.type,
      text: messageText(message),
      media: messageMedia(message),
      tap: messageTap(message),
      sentAt: sentAt(message.timestamp),
    });
    if (result.duplicate) outcome.duplicates++;
    else outcome.received++;
  }
  for (const status of value.statuses ?? []) {
    if (!isReceiptStatus(status.status)) {
      outcome.ignored++;
      continue;
    }
    const { changed } = await applyReceipt(ctx, {
      externalId: status.id,
      status: status.status,
      failureReason: receiptFailure(status),
    });
    if (changed) outcome.receipts++;
    else outcome.ignored++;
  }
}

function receiptFailure(status: StatusReceipt): string | null {
  const error = status.errors?.[0];
  if (!error) return null;
  const parts = [
    error.code !== undefined ? `(#${String(error.code)})` : '',
    error.title ?? error.message ?? '',
    error.error_data?.details ?? '',
  ];
  return parts.filter(Boolean).join(' ').slice(0, 500) || null;
}

/** Meta's `timestamp` (Unix seconds) when it is sane; the customer service window runs from it. */
function sentAt(timestamp: string | undefined): Date | undefined {
  const seconds = Number(timestamp);
  if (!timestamp || !Number.isFinite(seconds)) return undefined;
  const at = new Date(seconds * 1000);
  // A clock ahead of ours must not stretch the window; a very old one is a replay.
  return at.getTime() > Date.now() ? new Date() : at;
}
