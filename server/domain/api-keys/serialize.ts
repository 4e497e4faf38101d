// An API key as lists show it: never the key, only its prefix.
import { keyPermissions } from '@/server/auth/principal';
import type { ApiKey } from '@/server/db/generated/client';
import type { ApiKeyResource } from './schemas';

export function serializeApiKey(key: ApiKey): ApiKeyResource {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revokes_at: key.revokedAt?.toISOString() ?? null,
    permissions: keyPermissions(key.permissions),
  };
}

/** Keys that still authenticate: not expired, and not revoked or inside a rotation grace period. */
export const usableKeys = () => {
  const now = new Date();
  return {
    AND: [
      { OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
      { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    ],
  };
};
