import { forgetCachedCredentials } from '@/server/auth/credential-cache';
import { transaction } from '@/server/db/unit-of-work';
import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { issueApiKey } from './issue-api-key';
import { assertMayGrant } from './permissions';
import { usableKeys } from './serialize';

/**
 * A new key now, with the old one's name, expiry and permissions (only for a caller that holds them
 * all: 403); the old one stops at once, or after `grace_seconds` (≤ 24 h).
 */
function rotateApiKeyUnaudited(ctx: OperationContext, input: { id: string; grace_seconds: number }) {
  return transaction(ctx, async (unit) => {
    const tx = await unit.orm();
    const old = await tx.apiKey.findFirst({ where: { id: input.id, ...usableKeys() } });
    if (!old) throw Errors.notFound('API key');
    assertMayGrant(ctx, old.permissions);
    const revokeAt = new Date(Date.now() + input.grace_seconds * 1000);
    const { count } = await tx.apiKey.updateMany({
      where: { id: input.id, ...usableKeys() },
      data: { revokedAt: revokeAt },
    });
    if (count === 0) throw Errors.notFound('API key');
    const created = await issueApiKey(tx, {
      tenantId: ctx.tenantId,
      name: old.name,
      expiresAt: old.expiresAt,
      permissions: old.permissions,
    });
    return { ...created, replaced_key: { id: old.id, revokes_at: revokeAt.toISOString() } };
  });
}

/** rotateApiKey, in one transaction with its audit entry (api_key.rotated). */
const rotateApiKeyAudited = audited(rotateApiKeyUnaudited, (input) => ({
  action: 'api_key.rotated',
  target: { type: 'api_key', id: input.id },
}));

/** rotateApiKeyAudited, then this instance's credential cache forgets the old key at once. */
export async function rotateApiKey(...args: Parameters<typeof rotateApiKeyAudited>) {
  const result = await rotateApiKeyAudited(...args);
  forgetCachedCredentials();
  return result;
}
