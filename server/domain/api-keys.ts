import { generateApiKey } from '@/server/auth/api-key-format';
import type { ApiKey } from '@/server/db/generated/client';
import type { TenantDb } from '@/server/db/tenant-scope';
import { Errors } from '@/server/http/errors';
import { paginate } from '@/server/http/pagination';
import { newId } from '@/server/lib/ids';
import { sha256Hex } from '@/server/security/hashing';

/** API keys of one tenant. The full key exists only in the create/rotate response. */
export interface ApiKeyResource {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  /** Set while a rotated key is still inside its grace period. */
  revokes_at: string | null;
}

export function serializeApiKey(key: ApiKey): ApiKeyResource {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revokes_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** What a create or rotate answers: the only time the full key is ever shown. */
export interface ApiKeyWithSecret {
  id: string;
  name: string;
  prefix: string;
  key: string;
  created_at: string;
  expires_at: string | null;
}

/** Anything that can insert an API key row: a tenant-scoped client, a transaction, the operator client. */
interface ApiKeyWriter {
  apiKey: { create(args: { data: Omit<ApiKey, 'createdAt' | 'revokedAt' | 'lastUsedAt'> }): Promise<ApiKey> };
}

/** Mints a key, stores only its hash, and returns it once. */
export async function issueApiKey(
  db: ApiKeyWriter,
  input: { tenantId: string; name: string; expiresAt?: Date | null },
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
    },
  });
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    key,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

export function createApiKey(
  db: TenantDb,
  tenantId: string,
  input: { name: string; expiresAt?: Date | null },
) {
  return issueApiKey(db, { tenantId, ...input });
}

/** Keys that still authenticate: not revoked, or inside a rotation grace period. */
const usable = () => ({ OR: [{ revokedAt: null }, { revokedAt: { gt: new Date() } }] });

export function listApiKeys(db: TenantDb, query: { limit: number; cursor?: string }) {
  return paginate(
    query,
    ({ after, take }) =>
      db.apiKey.findMany({ where: { ...after, ...usable() }, orderBy: { id: 'desc' }, take }),
    serializeApiKey,
  );
}

export async function revokeApiKey(db: TenantDb, id: string): Promise<void> {
  const { count } = await db.apiKey.updateMany({
    where: { id, ...usable() },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw Errors.notFound('API key');
}

/** A new key now; the old one stops at once, or after `graceSeconds` (≤ 24 h). */
export async function rotateApiKey(db: TenantDb, tenantId: string, id: string, graceSeconds: number) {
  return db.$transaction(async (tx) => {
    const old = await tx.apiKey.findFirst({ where: { id, ...usable() } });
    if (!old) throw Errors.notFound('API key');
    const revokeAt = new Date(Date.now() + graceSeconds * 1000);
    const { count } = await tx.apiKey.updateMany({
      where: { id, ...usable() },
      data: { revokedAt: revokeAt },
    });
    if (count === 0) throw Errors.notFound('API key');
    const created = await issueApiKey(tx, { tenantId, name: old.name, expiresAt: old.expiresAt });
    return {
      ...created,
      replaced_key: { id: old.id, revokes_at: revokeAt.toISOString() },
    };
  });
}
