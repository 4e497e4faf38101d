import { settings } from '@/server/config/settings';
import { lockTenantRows } from '@/server/db/advisory-lock';
import { transaction } from '@/server/db/unit-of-work';
import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { issueApiKey } from './issue-api-key';
import { assertMayGrant, storedPermissions } from './permissions';
import type { CreateApiKeyInput } from './schemas';
import { usableKeys } from './serialize';

/**
 * A new key for the tenant; the answer is the only time its secret is shown. Without `permissions` a
 * full key; with them a restricted one; either way only with permissions the caller holds (403). A
 * tenant has at most
 * MAX_API_KEYS_PER_TENANT keys that still authenticate: one more is 409 api_key_limit_reached
 * (rotation replaces a key, so it is not refused).
 */
function createApiKeyUnaudited(ctx: OperationContext, input: CreateApiKeyInput) {
  const permissions = storedPermissions(input.permissions);
  assertMayGrant(ctx, permissions);
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    // Concurrent creations of the tenant count one after the other.
    await lockTenantRows(tx, 'api_keys');
    const limit = settings().MAX_API_KEYS_PER_TENANT;
    const usable = await db.apiKey.count({
      where: usableKeys(),
    });
    if (usable >= limit) {
      throw Errors.conflict(
        'api_key_limit_reached',
        `This tenant already has ${limit} API keys, the most it may have; revoke one to create another`,
      );
    }
    return issueApiKey(db, {
      tenantId: ctx.tenantId,
      name: input.name,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      permissions,
    });
  });
}

/** createApiKey, in one transaction with its audit entry (api_key.created). */
export const createApiKey = audited(createApiKeyUnaudited, (_input, key) => ({
  action: 'api_key.created',
  target: { type: 'api_key', id: key.id },
}));
