import { randomBytes } from 'node:crypto';

/**
 * The id of a choice the service sends a customer (a list row, a reply button, a quick-reply payload):
 * 128 random bits, what WhatsApp sends back when it is tapped. Never data and never guessable: it is
 * looked up, within its conversation, and nothing else is read from it.
 */
export function newChoiceId(): string {
  return `chc_${randomBytes(16).toString('base64url')}`;
}
