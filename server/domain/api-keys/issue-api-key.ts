// The one place API keys are minted: create, rotate and the operator's first key of a tenant.
import { generateApiKey } from '@/server/auth/api-key-format';
import { keyPermissions } from '@/server/auth/principal';
import type { ApiKey } from '@/server/db/generated/client';
import { newId } from '@/server/lib/ids';
import { sha256Hex } from '@/server/security/hashing';
import type { ApiKeyWithSecret } from './schemas';

/** Anything that can insert an API key row: a tenant-scoped client, a transaction, the operator client. */
interface ApiKeyWriter {
  apiKey: { create(args: { data: Omit<ApiKey, 'createdAt' | 'revokedAt' | 'lastUsedAt'> }): Promise<ApiKey> };
}

/**
 * Mints a key, stores only its hash, and returns it once. `permissions` as stored: empty (or absent)
 * for a full key (./permissions.ts).
 */
export async function issueApiKey(
  db: ApiKeyWriter,
  input: { tenantId: string; name: string; expiresAt?: Date | null; permissions?: readonly string[] },
): Promise<ApiKeyWithSecret> {
  const { key, prefix } = generateApiKey();
  const row = await db.apiKey.create({
    data: {
      id: newId('apiKey'),
      tenantId: input.tenantId,
      name: input.name,
      prefix,
      secretHash: sha256Hex(key),
      expiresAt: input.expiresAt ?? null,
      permissions: [...(input.permissions ?? [])],
    },
  });
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    key,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    permissions: keyPermissions(row.permissions),
  };
}
