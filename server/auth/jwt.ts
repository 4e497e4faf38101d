// Access tokens: HS256 JWTs, 30 minutes, algorithm, issuer and audience pinned on verify. `iat` is
// checked against the user's `tokens_valid_after` on every request (server/auth/principal.ts).
import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { settings } from '@/server/config/settings';
import type { Role } from '@/server/db/generated/enums';

export const ACCESS_TOKEN_TTL_SECONDS = 30 * 60;
export const JWT_ISSUER = 'switchboard';
export const JWT_AUDIENCE = 'switchboard-api';

export interface AccessClaims {
  sub: string;
  tid: string;
  role: Role;
  jti: string;
  iat: number;
  exp: number;
}

function key(): Uint8Array {
  return new TextEncoder().encode(`switchboard:jwt:${settings().AUTH_SECRET}`);
}

export async function signAccessToken(
  input: { userId: string; tenantId: string; role: Role },
  now = Date.now(),
): Promise<string> {
  // Millisecond precision (a NumericDate may have a fraction, RFC 7519 §2): a token issued just
  // after a password reset must not look older than it (server/auth/principal.ts).
  const iat = now / 1000;
  return new SignJWT({ tid: input.tenantId, role: input.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(input.userId)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .setJti(randomUUID())
    .sign(key());
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyAccessToken(token: string): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, key(), {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ['sub', 'tid', 'role', 'iat', 'exp', 'jti'],
      clockTolerance: 0,
    });
    if (typeof payload.tid !== 'string' || (payload.role !== 'admin' && payload.role !== 'agent')) {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, claims: payload as unknown as AccessClaims };
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
