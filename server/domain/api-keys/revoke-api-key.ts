import { forgetCachedCredentials } from '@/server/auth/credential-cache';
import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { usableKeys } from './serialize';

/** Revoked at once; a key that no longer authenticates is not found. */
async function revokeApiKeyUnaudited(ctx: OperationContext, input: { id: string }): Promise<void> {
  const { count } = await ctx.db.apiKey.updateMany({
    where: { id: input.id, ...usableKeys() },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw Errors.notFound('API key');
}

/** revokeApiKey, in one transaction with its audit entry (api_key.revoked). */
const revokeApiKeyAudited = audited(revokeApiKeyUnaudited, (input) => ({
  action: 'api_key.revoked',
  target: { type: 'api_key', id: input.id },
}));

/** revokeApiKeyAudited, then this instance's credential cache forgets the old key at once. */
export async function revokeApiKey(...args: Parameters<typeof revokeApiKeyAudited>) {
  const result = await revokeApiKeyAudited(...args);
  forgetCachedCredentials();
  return result;
}
