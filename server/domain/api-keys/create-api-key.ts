import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { issueApiKey } from './issue-api-key';
import type { CreateApiKeyInput } from './schemas';

/** A new key for the tenant; the answer is the only time its secret is shown. */
function createApiKeyUnaudited(ctx: OperationContext, input: CreateApiKeyInput) {
  return issueApiKey(ctx.db, {
    tenantId: ctx.tenantId,
    name: input.name,
    expiresAt: input.expires_at ? new Date(input.expires_at) : null,
  });
}

/** createApiKey, in one transaction with its audit entry (api_key.created). */
export const createApiKey = audited(createApiKeyUnaudited, (_input, key) => ({
  action: 'api_key.created',
  target: { type: 'api_key', id: key.id },
}));
