// A booking's manage link, `/b/{token}`: whoever holds it may see the booking and, while allowed,
// cancel, move or pay it (server/domain/booking-page/manage-booking.ts). The token is a credential of
// the customer, so it is never stored: it is HMAC-SHA256, under a key derived from SECRETS_KEY, of the
// booking's id and a random nonce of its own (128 bits, `manage_nonce`). The database holds only the
// nonce, useless without the key, and the token's SHA-256 (`manage_token_hash`, unique), by which a
// request finds its booking. Staff and the service's own messages get the same link again whenever
// they ask (GET /bookings/{id}, `manageUrlOf`) by deriving it once more, as Stripe shows a hosted
// invoice's URL again; a leaked database gives neither the links nor a way to make them.
import { createHmac, randomBytes } from 'node:crypto';
import { publicBaseUrl } from '@/server/config/public-url';
import { settings } from '@/server/config/settings';
import { db as unscoped } from '@/server/db/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import { sha256Hex } from '@/server/security/hashing';

/** What every manage token starts with (a log scan or a secret scanner can tell one by it). */
export const MANAGE_TOKEN_PREFIX = 'mng_';
/** `mng_` + 43 base64url characters: the 256 bits of the HMAC. */
const MANAGE_TOKEN = /^mng_[A-Za-z0-9_-]{43}$/;
/** A link stops working this long after the booking's end. */
export const MANAGE_LINK_LIFETIME_MS = 30 * 86_400_000;

let derived: { from: string; key: Buffer } | undefined;
function key(): Buffer {
  const from = settings().SECRETS_KEY;
  if (derived?.from !== from)
    derived = { from, key: createHmac('sha256', from).update('switchboard:manage-link:v1').digest() };
  return derived.key;
}

/** A new booking's nonce: 128 random bits, hex. */
export function newManageNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The booking's manage token, derived again from its id and nonce. */
export function manageToken(booking: { id: string; manageNonce: string }): string {
  const mac = createHmac('sha256', key()).update(`${booking.id}.${booking.manageNonce}`).digest('base64url');
  return `${MANAGE_TOKEN_PREFIX}${mac}`;
}

/** What is stored to find a booking by its token. */
export function manageTokenHash(token: string): string {
  return sha256Hex(token);
}

/** Whether `text` has a manage token's shape (anything else names no booking, unread). */
export function looksLikeManageToken(text: string): boolean {
  return MANAGE_TOKEN.test(text);
}

/** The page of a token: `https://…/b/mng_…`. */
export function manageUrl(token: string): string {
  return `${publicBaseUrl()}/b/${token}`;
}

/**
 * The manage link of a booking, for what the service sends its customer (a confirmation on WhatsApp,
 * the booking page's answer) and what staff see in GET /bookings/{id}.
 */
export function manageUrlOf(booking: { id: string; manageNonce: string }): string {
  return manageUrl(manageToken(booking));
}

/**
 * The manage link of a booking known only by its id, in the tenant of `db` (an operation's `ctx.db`
 * or a unit of work's `await tx.orm()`); null when the tenant has no such booking.
 */
export async function manageUrlOfId(
  db: Pick<TenantTx, 'booking'>,
  bookingId: string,
): Promise<string | null> {
  const row = await db.booking.findUnique({
    where: { id: bookingId },
    select: { id: true, manageNonce: true },
  });
  return row ? manageUrlOf(row) : null;
}

/** The nonce and token hash a new booking is inserted with. */
export function newManageLink(bookingId: string): { nonce: string; hash: string } {
  const nonce = newManageNonce();
  return { nonce, hash: manageTokenHash(manageToken({ id: bookingId, manageNonce: nonce })) };
}

/** Whether a link of a booking ending at `endAt` still works at `now`. */
export function manageLinkAlive(endAt: Date, now = Date.now()): boolean {
  return endAt.getTime() + MANAGE_LINK_LIFETIME_MS > now;
}

/**
 * Bookings stored before manage links existed got a nonce from the migration but no token hash (the
 * database cannot derive a token): this writes theirs, 500 at a time, after the migrations ran
 * (server/launcher/database.ts). Once none is left it is one index lookup. A cross-tenant pass.
 */
export async function backfillManageLinks(): Promise<number> {
  const db = unscoped();
  let written = 0;
  for (;;) {
    const rows = await db.booking.findMany({
      where: { manageTokenHash: null },
      select: { id: true, manageNonce: true },
      take: 500,
    });
    for (const row of rows) {
      await db.booking.updateMany({
        where: { id: row.id, manageTokenHash: null },
        data: { manageTokenHash: manageTokenHash(manageToken(row)) },
      });
    }
    written += rows.length;
    if (rows.length < 500) return written;
  }
}
