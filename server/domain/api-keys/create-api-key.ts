import type { OperationContext } from '@/server/domain/context';
import { issueApiKey } from './issue-api-key';
import type { CreateApiKeyInput } from './schemas';

/** A new key for the tenant; the answer is the only time its secret is shown. */
export function createApiKey(ctx: OperationContext, input: CreateApiKeyInput) {
  return issueApiKey(ctx.db, {
    tenantId: ctx.tenantId,
    name: input.name,
    expiresAt: input.expires_at ? new Date(input.expires_at) : null,
  });
}
