// Inbound WhatsApp Cloud API traffic, checked at the edge before the domain sees it (as Stripe's is,
// server/stripe/webhook-events.ts): the subscription challenge, and each notification's signature
// (X-Hub-Signature-256 over the exact bytes, keyed with WHATSAPP_APP_SECRET), JSON and shape. What a
// verified notification does is the domain's (server/domain/conversations/receive-whatsapp-webhook.ts).
import type { z } from 'zod';
import { settings } from '@/server/config/settings';
import { AppError, Errors } from '@/server/lib/errors';
import { assertNestingWithinLimit, withoutNul } from '@/server/lib/safe-input';
import { validate } from '@/server/lib/validate';
import { logger } from '@/server/log';
import { constantTimeEqual } from '@/server/security/hashing';
import { WebhookPayload } from './payload';
import { isValidHubSignature } from './signature';

/**
 * Meta's verification request when the webhook is configured: the challenge to echo when the mode is
 * `subscribe` and the token is WHATSAPP_VERIFY_TOKEN (compared in constant time), else 403.
 */
export function answerVerification(query: {
  'hub.mode'?: string;
  'hub.verify_token'?: string;
  'hub.challenge'?: string;
}): string {
  const expected = settings().WHATSAPP_VERIFY_TOKEN;
  const given = query['hub.verify_token'];
  const ok =
    query['hub.mode'] === 'subscribe' &&
    !!expected &&
    given !== undefined &&
    constantTimeEqual(given, expected);
  if (!ok || query['hub.challenge'] === undefined) throw Errors.forbidden('Verification token mismatch');
  return query['hub.challenge'];
}

/**
 * A notification, verified and parsed: 503 whatsapp_not_configured without an app secret, 401
 * invalid_signature for a missing or wrong signature (checked before the body is parsed), 400
 * invalid_json, 422 for a body that is not a Cloud API payload. Meta's text is kept whatever it holds:
 * a NUL (which PostgreSQL cannot store) becomes U+FFFD.
 */
export function verifyWhatsAppWebhook(
  rawBody: string,
  signature: string | null,
): z.infer<typeof WebhookPayload> {
  const secret = settings().WHATSAPP_APP_SECRET;
  if (!secret) {
    logger().error('WhatsApp webhook called but WHATSAPP_APP_SECRET is not set');
    throw new AppError('whatsapp_not_configured', 'Inbound WhatsApp is not configured on this server');
  }
  if (!isValidHubSignature(rawBody, signature, secret)) {
    throw new AppError('invalid_signature', 'X-Hub-Signature-256 is missing or does not match the body');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new AppError('invalid_json', 'The request body is not valid JSON');
  }
  // No Meta payload nests deeply; a signed one that does would overflow withoutNul's stack.
  assertNestingWithinLimit(parsed);
  return validate(WebhookPayload, withoutNul(parsed));
}
