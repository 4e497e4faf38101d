// API keys look like `sk_live_<prefix>_<secret>`; the prefix is public (lists, logs), the secret is
// not.
import { randomBase62 } from '@/server/security/random';

const KEY_PATTERN = /^sk_live_([0-9A-Za-z]{12})_([0-9A-Za-z]{40})$/;

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
