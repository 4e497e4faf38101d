import { z } from 'zod';
import { receiveWhatsAppWebhook } from '@/server/domain/conversations/receive-whatsapp-webhook';
import { json, publicRoute } from '@/server/http/route';
import { answerVerification } from '@/server/whatsapp/inbound';
import { WebhookPayload } from '@/server/whatsapp/payload';

const tag = 'WhatsApp';
const path = '/channels/whatsapp/webhook';

const VerifyQuery = z.object({
  'hub.mode': z.string().max(100).optional(),
  'hub.verify_token': z.string().max(1000).optional(),
  'hub.challenge': z.string().max(1000).optional(),
});

const WebhookAck = z
  .object({
    received: z.number().int().meta({ description: 'New inbound messages stored' }),
    duplicates: z.number().int().meta({ description: 'Inbound messages already stored (provider retries)' }),
    receipts: z.number().int().meta({ description: 'Status receipts that moved a message forward' }),
    ignored: z
      .number()
      .int()
      .meta({ description: 'Late or repeated receipts, unknown numbers, unknown statuses' }),
  })
  .meta({ id: 'WhatsAppWebhookAck' });

export const whatsappRoutes = [
  publicRoute({
    method: 'GET',
    path,
    operationId: 'verifyWhatsAppWebhook',
    tag,
    summary: "Meta's webhook verification challenge",
    description:
      'Called by Meta when the webhook is configured (no X-Tenant-ID, no credential). Answers ' +
      'hub.challenge as text/plain when hub.mode is subscribe and hub.verify_token equals ' +
      'WHATSAPP_VERIFY_TOKEN; otherwise 403 forbidden.',
    query: VerifyQuery,
    responses: {
      200: {
        description: 'The hub.challenge value, as text/plain',
        schema: z.string(),
        mediaType: 'text/plain; charset=utf-8',
      },
    },
    errors: [403],
    handler: async ({ query }) => json(200, answerVerification(query)),
  }),
  publicRoute({
    method: 'POST',
    path,
    operationId: 'receiveWhatsAppWebhook',
    tag,
    summary: 'Inbound WhatsApp Cloud API notifications (messages and status receipts)',
    description:
      'Called by Meta (no X-Tenant-ID, no credential). X-Hub-Signature-256 must be sha256=<hex ' +
      'HMAC-SHA256 of the raw body keyed with WHATSAPP_APP_SECRET>; it is checked before the body is ' +
      'parsed, and a missing or wrong signature answers 401 invalid_signature (503 ' +
      'whatsapp_not_configured when no app secret is set). Each change is routed by ' +
      'metadata.phone_number_id to the tenant that registered the number; unknown numbers are ' +
      'acknowledged with 200 and logged. Inbound messages are stored once per WhatsApp message id; ' +
      'receipts only move an outbound message forward. A 5xx makes Meta retry, which is safe.',
    rawBody: true,
    // Read raw for the signature, then validated against this schema by the handler.
    body: WebhookPayload.meta({ id: 'WhatsAppNotification', description: "Meta's notification body" }),
    responses: { 200: { description: 'Accepted', schema: WebhookAck } },
    errors: [400, 401, 422, 503],
    handler: async ({ request, rawBody }) =>
      json(
        200,
        await receiveWhatsAppWebhook({ rawBody, signature: request.headers.get('x-hub-signature-256') }),
      ),
  }),
];
