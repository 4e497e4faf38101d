import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta signs each webhook POST with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw
 * body keyed with the app secret>`. Checked on the exact bytes, before any parsing, in constant time.
 */
export function isValidHubSignature(
  rawBody: string | Buffer,
  header: string | null,
  appSecret: string,
): boolean {
  if (!header) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

export function hubSignature(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
