// One-time links (invitations, password resets): a random token in the URL, only its SHA-256 stored.
import { publicBaseUrl } from '@/server/config/public-url';
import { sha256Hex } from '@/server/security/hashing';
import { randomBase62 } from '@/server/security/random';

/** A fresh token (256 bits of base62) and the hash that is stored for it. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBase62(43);
  return { token, tokenHash: sha256Hex(token) };
}

export const hashLinkToken = (token: string): string => sha256Hex(token);

/** `<dashboard>/<path>/<token>`: the dashboard's public URL is AUTH_URL (the launcher's default otherwise). */
export function dashboardLink(path: string, token: string): string {
  return new URL(`${path}/${token}`, `${publicBaseUrl()}/`).toString();
}
