// The private calendar feed URL of a resource carries a token. Calendar apps (Google, Apple) keep the
// subscription URL and poll it, so the URL must stay readable to admins: the token is stored twice,
// as a SHA-256 (to find the resource when a feed request comes in) and sealed with the secret box (to
// show the URL again); never in the clear. Rotating replaces both at once.
import { settings } from '@/server/config/settings';
import { sha256Hex } from '@/server/security/hashing';
import { randomBase62 } from '@/server/security/random';
import { decryptSecret, encryptSecret } from '@/server/security/secret-box';

export function newCalendarToken(): { token: string; hash: string; sealed: string } {
  const token = `cal_${randomBase62(40)}`;
  return { token, hash: sha256Hex(token), sealed: encryptSecret(token) };
}

export const hashCalendarToken = (token: string): string => sha256Hex(token);

export function openCalendarToken(sealed: string): string {
  return decryptSecret(sealed);
}

/** The feed's public URL (AUTH_URL is the service's public base URL; the launcher's default otherwise). */
export function calendarFeedUrl(resourceId: string, token: string): string {
  const base =
    settings().AUTH_URL ?? process.env.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? '3000'}`;
  const url = new URL(
    `api/v1/resources/${encodeURIComponent(resourceId)}/calendar.ics`,
    base.endsWith('/') ? base : `${base}/`,
  );
  url.searchParams.set('token', token);
  return url.toString();
}
