// The bearer tokens minted here and how a request tells them apart: API keys look like
// `sk_live_<prefix>_<secret>`, assistant session tokens `ast_<prefix>_<secret>`. The prefix is public
// (lists, logs) and is how the row is found; the secret is not, and only the SHA-256 of the whole
// token is stored.
import { randomBase62 } from '@/server/security/random';

const KEY_PATTERN = /^sk_live_([0-9A-Za-z]{12})_([0-9A-Za-z]{40})$/;
const SESSION_PATTERN = /^ast_([0-9A-Za-z]{12})_([0-9A-Za-z]{40})$/;

export function generateApiKey(): { key: string; prefix: string } {
  const prefix = randomBase62(12);
  return { key: `sk_live_${prefix}_${randomBase62(40)}`, prefix };
}

export function parseApiKey(token: string): { prefix: string } | null {
  const match = KEY_PATTERN.exec(token);
  return match ? { prefix: match[1] } : null;
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith('sk_');
}

export function generateSessionToken(): { token: string; prefix: string } {
  const prefix = randomBase62(12);
  return { token: `ast_${prefix}_${randomBase62(40)}`, prefix };
}

export function parseSessionToken(token: string): { prefix: string } | null {
  const match = SESSION_PATTERN.exec(token);
  return match ? { prefix: match[1] } : null;
}

export function looksLikeSessionToken(token: string): boolean {
  return token.startsWith('ast_');
}
