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
 * The secrets a delivery is signed with right now: the current one, plus the previous one during
 * the 24 h overlap.
 */
export function signingSecrets(
  endpoint: { secretEnc: string; previousSecretEnc: string | null; previousSecretExpiresAt: Date | null },
  now = new Date(),
): string[] {
  const secrets = [decryptSecret(endpoint.secretEnc)];
  if (
    endpoint.previousSecretEnc &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > now
  ) {
    secrets.push(decryptSecret(endpoint.previousSecretEnc));
  }
  return secrets;
}
