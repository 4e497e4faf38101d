import {
  ASSISTANT_SESSION_PERMISSIONS,
  allows,
  isPermission,
  type Permission,
  permissionsOf,
} from '@/server/client-safe/permissions';
import { db } from '@/server/db/client';
import type { Role } from '@/server/db/generated/enums';
import { pgPool } from '@/server/db/pool';
import { Errors } from '@/server/lib/errors';
import { isUuid } from '@/server/lib/ids';
import { constantTimeEqual, sha256Hex } from '@/server/security/hashing';
import { looksLikeApiKey, looksLikeSessionToken, parseApiKey, parseSessionToken } from './api-key-format';
import { cachedCredential } from './credential-cache';
import { verifyAccessToken } from './jwt';
import { accessTokenMembership } from './sql/access-token-membership';
import { findAssistantSession } from './sql/find-assistant-session';

/**
 * Who is calling, with the permissions the credential holds (server/client-safe/permissions.ts): an
 * API key (its own set; a full key every permission of the admin role), a signed-in person's access
 * token (their role's), or an assistant session token (a fixed set, on the MCP endpoint only, acting
 * for one conversation's contact).
 */
export type Principal =
  | { kind: 'api_key'; tenantId: string; keyId: string; permissions: readonly Permission[] }
  | { kind: 'user'; tenantId: string; role: Role; userId: string; permissions: readonly Permission[] }
  | {
      kind: 'assistant_session';
      tenantId: string;
      sessionId: string;
      conversationId: string;
      /** The conversation's contact as it is now: who the session's tools act for. */
      contact: { name: string | null; phone: string | null };
      permissions: readonly Permission[];
    };

const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves `Authorization: Bearer …` or throws the contract's 401. */
export async function authenticate(authorization: string | null): Promise<Principal> {
  const match = authorization ? /^Bearer ([^\s]+)$/.exec(authorization.trim()) : null;
  if (!match) throw Errors.unauthenticated('Send Authorization: Bearer <API key or access token>');
  const token = match[1];
  if (looksLikeApiKey(token)) return authenticateApiKey(token);
  if (looksLikeSessionToken(token)) return authenticateAssistantSession(token);
  return authenticateAccessToken(token);
}

/** A person's credential: what their role holds. */
export function userPrincipal(input: { tenantId: string; userId: string; role: Role }): Principal {
  return { kind: 'user', ...input, permissions: permissionsOf(input.role) };
}

/**
 * An API key's permissions: a full key (stored empty) holds the admin role's; a restricted key its own
 * set, less any name the table no longer has (never more than it was given).
 */
export function keyPermissions(stored: readonly string[] | null): Permission[] {
  if (!stored || stored.length === 0) return permissionsOf('admin');
  return stored.filter(isPermission);
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
  return {
    kind: 'api_key',
    tenantId: key.tenantId,
    keyId: key.id,
    permissions: keyPermissions(key.permissions),
  };
}

/**
 * An assistant session token (`ast_…`): one indexed read of the session with its conversation, never
 * cached, so DELETE /assistant-sessions/{id}, its expiry and the resolution of its conversation (by
 * whoever, however) all hold from the very next request. A session minted before the conversation's
 * last resolution stays ended even once a new message has reopened it.
 */
async function authenticateAssistantSession(token: string): Promise<Principal> {
  const parsed = parseSessionToken(token);
  if (!parsed) throw Errors.unauthenticated('Malformed assistant session token');
  const [session] = await findAssistantSession.pgRows(pgPool(), [parsed.prefix], { prepared: true });
  if (!session || !constantTimeEqual(session.tokenHash, sha256Hex(token)))
    throw Errors.unauthenticated('Unknown assistant session');
  const now = new Date();
  if (session.revokedAt && session.revokedAt <= now)
    throw Errors.unauthenticated('This assistant session has been ended');
  if (session.expiresAt <= now) throw Errors.unauthenticated('This assistant session has expired');
  if (
    session.conversationStatus === 'resolved' ||
    (session.resolvedAt && session.resolvedAt >= session.createdAt)
  )
    throw Errors.unauthenticated('The conversation of this assistant session has been resolved');
  return {
    kind: 'assistant_session',
    tenantId: session.tenantId,
    sessionId: session.id,
    conversationId: session.conversationId,
    contact: { name: session.contactName, phone: session.contactPhone },
    permissions: ASSISTANT_SESSION_PERMISSIONS,
  };
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
  return userPrincipal({ tenantId, userId, role: membership.role });
}

/**
 * 403 forbidden, naming the permission, unless the credential holds it: the check every transport
 * makes (REST's pipeline, tRPC's procedures and the assistant's tools through `runRoute`), through
 * the one `allows` of server/client-safe/permissions.ts.
 */
export function requirePermission(
  credential: { permissions: readonly Permission[] },
  permission: Permission,
): void {
  if (!allows(credential.permissions, permission))
    throw Errors.forbidden(`This needs the permission ${permission}, which this credential does not hold`);
}

/** `iat` is in seconds, with milliseconds as a fraction (server/auth/jwt.ts). */
function issuedBefore(iat: number, validAfter: Date | null): boolean {
  return validAfter !== null && Math.round(iat * 1000) < validAfter.getTime();
}
