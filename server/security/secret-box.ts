// Encryption at rest for webhook and channel secrets: AES-256-GCM under a key derived from
// SECRETS_KEY. Stored as `v1.<iv>.<ciphertext+tag>` (base64url) so the format can evolve.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { settings } from '@/server/config/settings';

let derived: { from: string; key: Buffer } | undefined;
function key(): Buffer {
  // Derived once per SECRETS_KEY value (every webhook attempt decrypts its endpoint's secret).
  const from = settings().SECRETS_KEY;
  if (derived?.from !== from)
    derived = { from, key: createHash('sha256').update(`switchboard:secret-box:${from}`).digest() };
  return derived.key;
}

export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

export function decryptSecret(stored: string): string {
  const [version, ivText, bodyText] = stored.split('.');
  if (version !== 'v1' || !ivText || !bodyText) throw new Error('Unrecognised encrypted secret format');
  const body = Buffer.from(bodyText, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(ivText, 'base64url'));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}
