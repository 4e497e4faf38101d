import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';

/**
 * Ends a session at once: its token is refused (401) from the next request. One that no longer works
 * (ended or expired) is not found, as a revoked API key is.
 */
async function revokeAssistantSessionUnaudited(ctx: OperationContext, input: { id: string }): Promise<void> {
  const now = new Date();
  const { count } = await ctx.db.assistantSession.updateMany({
    where: { id: input.id, revokedAt: null, expiresAt: { gt: now } },
    data: { revokedAt: now },
  });
  if (count === 0) throw Errors.notFound('Assistant session');
}

/** revokeAssistantSession, in one transaction with its audit entry (assistant_session.revoked). */
export const revokeAssistantSession = audited(revokeAssistantSessionUnaudited, (input) => ({
  action: 'assistant_session.revoked',
  target: { type: 'assistant_session', id: input.id },
}));
