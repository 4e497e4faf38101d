import { hasPermission, type Permission } from '@/server/client-safe/permissions';
import { db } from '@/server/db/client';
import type { Role } from '@/server/db/generated/enums';
import { Errors } from '@/server/lib/errors';
import { isUuid } from '@/server/lib/ids';
import { constantTimeEqual, sha256Hex } from '@/server/security/hashing';
import { looksLikeApiKey, parseApiKey } from './api-key-format';
import { cachedCredential } from './credential-cache';
import { verifyAccessToken } from './jwt';
import { accessTokenMembership } from './sql/access-token-membership';

/** Who is calling: an API key (acts with the admin role) or a signed-in user's access token. */
export type Principal =
  | { kind: 'api_key'; tenantId: string; role: Role; keyId: string }
  | { kind: 'user'; tenantId: string; role: Role; userId: string };

const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves `Authorization: Bearer …` or throws the contract's 401. */
export async function authenticate(authorization: string | null): Promise<Principal> {
  const match = authorization ? /^Bearer ([^\s]+)$/.exec(authorization.trim()) : null;
  if (!match) throw Errors.unauthenticated('Send Authorization: Bearer <API key or access token>');
  const token = match[1];
  return looksLikeApiKey(token) ? authenticateApiKey(token) : authenticateAccessToken(token);
}

async function authenticateApiKey(token: string): Promise<Principal> {
  const parsed = parseApiKey(token);
  if (!parsed) throw Errors.unauthenticated('Malformed API key');
  // Looked up across tenants by design: the key itself names its tenant. Cached per instance until a
  // key changes anywhere (./credential-cache.ts): revoking takes effect at once on every instance.
  const key = await cachedCredential(`api_key:${parsed.prefix}`, () =>
    db().apiKey.findUnique({ where: { prefix: parsed.prefix } }),
  );
  if (!key || !constantTimeEqual(key.secretHash, sha256Hex(token)))
    throw Errors.unauthenticated('Unknown API key');
  const now = new Date();
  if (key.revokedAt && key.revokedAt <= now) throw Errors.unauthenticated('This API key has been revoked');
  if (key.expiresAt && key.expiresAt <= now) throw Errors.unauthenticated('This API key has expired');
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Coarse on purpose: one write a minute per key, not one per request.
    key.lastUsedAt = now; // the cached row too, so the next request does not write again
    await db().apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now } });
  }
  return { kind: 'api_key', tenantId: key.tenantId, role: 'admin', keyId: key.id };
}

/**
 * A valid signature is not enough: the membership is read on every request (one primary-key read,
 * not cached: a removal must hold from the very next request, which a cache told by NOTIFY could
 * miss by the notice's latency), so removing a member or changing a role takes effect at once, not
 * when the 30-minute token expires (docs/decisions.md "Security").
 * The same read takes the user's `tokens_valid_after`: a token issued before it (a password reset, a
 * reused refresh token) is refused at once too (issue 21, finding 6). One primary-key lookup and
 * its user row, like an API key's one read.
 */
async function authenticateAccessToken(token: string): Promise<Principal> {
  const result = await verifyAccessToken(token);
  if (!result.ok)
    throw result.reason === 'expired'
      ? Errors.tokenExpired()
      : Errors.unauthenticated('Invalid access token');
  const { tid: tenantId, sub: userId, iat } = result.claims;
  if (!isUuid(tenantId)) throw Errors.unauthenticated('Invalid access token');
  const [membership] = await accessTokenMembership.rows(db(), tenantId, userId);
  if (!membership) throw Errors.unauthenticated('This user no longer belongs to the tenant');
  if (issuedBefore(iat, membership.tokens_valid_after))
    throw Errors.unauthenticated(
      'This access token was issued before its sessions were ended (password reset); sign in again',
    );
  return { kind: 'user', tenantId, role: membership.role, userId };
}

/** 403 forbidden unless the caller's role holds the permission (server/client-safe/permissions.ts). */
export function requirePermission(principal: Pick<Principal, 'role'>, permission: Permission): void {
  if (!hasPermission(principal.role, permission)) throw Errors.forbidden();
}

/** `iat` is in seconds, with milliseconds as a fraction (server/auth/jwt.ts). */
function issuedBefore(iat: number, validAfter: Date | null): boolean {
  return validAfter !== null && Math.round(iat * 1000) < validAfter.getTime();
}
