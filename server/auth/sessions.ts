// Sign-in sessions: a 30-minute access JWT plus a rotating refresh token. Refresh tokens form a
// family that starts at login and ends 30 days later; each refresh spends the presented token and
// mints its successor, and presenting a spent token again revokes the whole family (someone holds a
// copy). Tokens are stored as SHA-256 hashes only.
import { lockKey } from '@/server/db/advisory-lock';
import { db, type Tx } from '@/server/db/client';
import type { Role } from '@/server/db/generated/enums';
import { type CrossTenantUnit, crossTenant, transaction } from '@/server/db/unit-of-work';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { burnPasswordCheck, sha256Hex, verifyPassword } from '@/server/security/hashing';
import { randomBase62 } from '@/server/security/random';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from './jwt';
import { type LoginAttempt, takeLoginAttempt } from './rate-limits';

export const REFRESH_FAMILY_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  refresh_token_expires_at: string;
  tenant_id: string;
  user: { id: string; email: string; name: string; role: Role };
}

/**
 * Email + password check shared by the REST login and the dashboard sign-in, so both count and
 * limit attempts the same way (server/auth/rate-limits.ts). Returns the user with their memberships.
 */
export async function verifyPasswordLogin(input: { email: string; password: string; ip: string }) {
  const email = normalizeEmail(input.email);
  const attempt = await takeLoginAttempt(email, input.ip);
  const user = await db().user.findUnique({ where: { email }, include: { memberships: true } });
  await checkPassword(attempt, user?.passwordHash ?? null, input.password);
  // Without a user there was no hash to match: checkPassword has thrown.
  return user as NonNullable<typeof user>;
}

/**
 * The same check for a user already read (an existing user accepting an invitation proves it is
 * them): counted and limited like a sign-in.
 */
export async function verifyUserPassword(
  user: { email: string; passwordHash: string },
  input: { password: string; ip: string },
): Promise<void> {
  const attempt = await takeLoginAttempt(normalizeEmail(user.email), input.ip);
  await checkPassword(attempt, user.passwordHash, input.password);
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** argon2 only after the attempt was counted; an unknown email spends the same time as a wrong password. */
async function checkPassword(attempt: LoginAttempt, passwordHash: string | null, password: string) {
  let ok = false;
  if (passwordHash) ok = await verifyPassword(passwordHash, password);
  else await burnPasswordCheck(password);
  if (!ok) throw Errors.invalidCredentials();
  await attempt.succeeded();
}

export async function login(input: {
  email: string;
  password: string;
  tenantHeader: string | null;
  ip: string;
}): Promise<SessionResponse> {
  const user = await verifyPasswordLogin(input);

  let membership = user.memberships[0];
  if (input.tenantHeader) {
    const match = user.memberships.find((m) => m.tenantId === input.tenantHeader);
    if (!match) throw Errors.tenantMismatch();
    membership = match;
  } else if (user.memberships.length > 1) {
    throw Errors.tenantRequired('You belong to several tenants: send X-Tenant-ID to choose one');
  }
  if (!membership) throw Errors.forbidden('This user belongs to no tenant');

  const familyId = newId('refreshFamily');
  const familyExpiresAt = new Date(Date.now() + REFRESH_FAMILY_TTL_MS);
  const refreshToken = await storeRefreshToken(db(), {
    tenantId: membership.tenantId,
    userId: user.id,
    familyId,
    familyExpiresAt,
  });
  return sessionResponse({
    user,
    tenantId: membership.tenantId,
    role: membership.role,
    familyExpiresAt,
    refreshToken,
  });
}

export async function refresh(input: {
  refreshToken: string;
  tenantHeader: string | null;
}): Promise<SessionResponse> {
  const token = await db().refreshToken.findUnique({ where: { tokenHash: sha256Hex(input.refreshToken) } });
  if (!token || token.revokedAt) throw Errors.unauthenticated('Unknown or revoked refresh token');
  if (input.tenantHeader && input.tenantHeader !== token.tenantId) throw Errors.tenantMismatch();
  if (token.familyExpiresAt <= new Date())
    throw Errors.tokenExpired('The refresh token has expired; sign in again');

  // Spending the token, re-checking the membership and minting the successor happen in one
  // transaction holding the family's lock, and so does every revocation of the family: a reuse
  // detected by a concurrent refresh therefore always sees, and revokes, the winner's new token.
  const outcome = await transaction(SESSIONS, async (unit) => {
    const tx = await unit.orm();
    await lockFamily(unit, token.familyId);
    const spent = await tx.refreshToken.updateMany({
      where: { id: token.id, rotatedAt: null, revokedAt: null },
      data: { rotatedAt: new Date() },
    });
    if (spent.count === 0) {
      await revokeFamilyIn(tx, token.familyId);
      // Whoever holds the copy may hold the family's access tokens too; they do not name their
      // family, so every access token of the person issued until now is refused (principal.ts).
      await tx.user.update({ where: { id: token.userId }, data: { tokensValidAfter: new Date() } });
      return { kind: 'reused' as const };
    }
    const membership = await tx.membership.findUnique({
      where: { tenantId_userId: { tenantId: token.tenantId, userId: token.userId } },
      include: { user: true },
    });
    if (!membership) {
      await revokeFamilyIn(tx, token.familyId);
      return { kind: 'left' as const };
    }
    const refreshToken = await storeRefreshToken(tx, {
      tenantId: token.tenantId,
      userId: token.userId,
      familyId: token.familyId,
      familyExpiresAt: token.familyExpiresAt,
    });
    return { kind: 'issued' as const, membership, refreshToken };
  });
  if (outcome.kind === 'reused') throw Errors.refreshTokenReused();
  if (outcome.kind === 'left') throw Errors.unauthenticated('This user no longer belongs to the tenant');
  return sessionResponse({
    user: outcome.membership.user,
    tenantId: token.tenantId,
    role: outcome.membership.role,
    familyExpiresAt: token.familyExpiresAt,
    refreshToken: outcome.refreshToken,
  });
}

export async function logout(input: { refreshToken: string; tenantHeader: string | null }): Promise<void> {
  const token = await db().refreshToken.findUnique({ where: { tokenHash: sha256Hex(input.refreshToken) } });
  if (!token) return; // like RFC 7009: revoking an unknown token is not an error
  if (input.tenantHeader && input.tenantHeader !== token.tenantId) throw Errors.tenantMismatch();
  await revokeFamily(token.familyId);
}

async function revokeFamily(familyId: string): Promise<void> {
  await transaction(SESSIONS, async (unit) => {
    const tx = await unit.orm();
    await lockFamily(unit, familyId);
    await revokeFamilyIn(tx, familyId);
  });
}

/** A refresh token names its tenant only once it is found, by its hash, across tenants. */
const SESSIONS = crossTenant('sign-in sessions: a refresh token is found by its hash');

function lockFamily(tx: CrossTenantUnit, familyId: string) {
  return lockKey(tx, `refresh-family:${familyId}`);
}

function revokeFamilyIn(tx: Tx, familyId: string) {
  return tx.refreshToken.updateMany({
    where: { familyId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/** Mints a refresh token of the family; only its hash is stored. */
async function storeRefreshToken(
  tx: Pick<Tx, 'refreshToken'>,
  input: { tenantId: string; userId: string; familyId: string; familyExpiresAt: Date },
): Promise<string> {
  const refreshToken = `rt_${randomBase62(43)}`;
  await tx.refreshToken.create({
    data: {
      id: newId('refreshToken'),
      tenantId: input.tenantId,
      userId: input.userId,
      familyId: input.familyId,
      tokenHash: sha256Hex(refreshToken),
      familyExpiresAt: input.familyExpiresAt,
    },
  });
  return refreshToken;
}

async function sessionResponse(input: {
  user: { id: string; email: string; name: string };
  tenantId: string;
  role: Role;
  familyExpiresAt: Date;
  refreshToken: string;
}): Promise<SessionResponse> {
  return {
    access_token: await signAccessToken({
      userId: input.user.id,
      tenantId: input.tenantId,
      role: input.role,
    }),
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: input.refreshToken,
    refresh_token_expires_at: input.familyExpiresAt.toISOString(),
    tenant_id: input.tenantId,
    user: { id: input.user.id, email: input.user.email, name: input.user.name, role: input.role },
  };
}
