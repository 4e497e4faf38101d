// Standard Webhooks secrets: `whsec_` + base64 of 32 random bytes, stored encrypted.
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from '@/server/security/secret-box';

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function newEncryptedSecret(): { secret: string; secretEnc: string } {
  const secret = generateWebhookSecret();
  return { secret, secretEnc: encryptSecret(secret) };
}

/**
 * Signing secrets decrypted, by their stored form. Every attempt signs with its endpoint's secret,
 * and decrypting it each time was about 6 % of the worker's CPU in a drain. A new or rotated secret
 * is stored as a new ciphertext, so an entry never goes stale: it is just not asked for again, and
 * the oldest entries leave once there are MAX_DECRYPTED.
 */
const decrypted = new Map<string, string>();
const MAX_DECRYPTED = 1000;

function decryptSigningSecret(stored: string): string {
  let secret = decrypted.get(stored);
  if (secret === undefined) {
    secret = decryptSecret(stored);
    if (decrypted.size >= MAX_DECRYPTED) decrypted.delete(decrypted.keys().next().value as string);
    decrypted.set(stored, secret);
  }
  return secret;
}

/**
 * The secrets a delivery is signed with right now: the current one, plus the previous one during
 * the 24 h overlap.
 */
export function signingSecrets(
  endpoint: { secretEnc: string; previousSecretEnc: string | null; previousSecretExpiresAt: Date | null },
  now = new Date(),
): string[] {
  const secrets = [decryptSigningSecret(endpoint.secretEnc)];
  if (
    endpoint.previousSecretEnc &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > now
  ) {
    secrets.push(decryptSigningSecret(endpoint.previousSecretEnc));
  }
  return secrets;
}
