import { generateSessionToken } from '@/server/auth/api-key-format';
import { lockTenantRows } from '@/server/db/advisory-lock';
import { transaction } from '@/server/db/unit-of-work';
import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { AppError, Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { sha256Hex } from '@/server/security/hashing';
import type { AssistantSessionWithToken, CreateAssistantSessionInput } from './schemas';

/**
 * Sessions of one conversation that may work at once. A host mints one per turn of the conversation
 * and ends it when its model is done (or lets it expire): ten cover a busy conversation, and a host
 * that forgets to end them is told (409 assistant_session_limit_reached) rather than filling the
 * table. Ended and expired sessions do not count.
 */
export const MAX_LIVE_SESSIONS_PER_CONVERSATION = 10;

/**
 * A short-lived token for an AI assistant that answers one conversation (docs/decisions.md
 * "Assistant sessions"): shown once, stored as a SHA-256 hash, valid on POST /api/v1/mcp only, acting
 * for the conversation's contact. 404 for a conversation the tenant does not have, 409
 * conversation_resolved for a resolved one, 409 assistant_session_limit_reached past the cap.
 */
function createAssistantSessionUnaudited(
  ctx: OperationContext,
  input: { conversation_id: string } & CreateAssistantSessionInput,
): Promise<AssistantSessionWithToken> {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    // Concurrent mints for one conversation are counted one after the other.
    await lockTenantRows(tx, `assistant_sessions:${input.conversation_id}`);
    const conversation = await db.conversation.findUnique({
      where: { id: input.conversation_id },
      select: { id: true, status: true },
    });
    if (!conversation) throw Errors.notFound('Conversation');
    if (conversation.status === 'resolved')
      throw new AppError(
        'conversation_resolved',
        'This conversation is resolved: an assistant session would end at once. A new message from the customer reopens it',
      );
    const now = new Date();
    const live = await db.assistantSession.count({
      where: { conversationId: conversation.id, revokedAt: null, expiresAt: { gt: now } },
    });
    if (live >= MAX_LIVE_SESSIONS_PER_CONVERSATION)
      throw Errors.conflict(
        'assistant_session_limit_reached',
        `This conversation already has ${MAX_LIVE_SESSIONS_PER_CONVERSATION} assistant sessions that work; end one (DELETE /assistant-sessions/{id}) or let it expire`,
      );
    const { token, prefix } = generateSessionToken();
    const row = await db.assistantSession.create({
      data: {
        id: newId('assistantSession'),
        tenantId: ctx.tenantId,
        conversationId: conversation.id,
        prefix,
        tokenHash: sha256Hex(token),
        createdBy: ctx.actor.type === 'system' ? 'system' : ctx.actor.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + input.ttl_seconds * 1000),
      },
    });
    return {
      id: row.id,
      token,
      conversation_id: row.conversationId,
      expires_at: row.expiresAt.toISOString(),
    };
  });
}

/** createAssistantSession, in one transaction with its audit entry (assistant_session.created). */
export const createAssistantSession = audited(createAssistantSessionUnaudited, (_input, session) => ({
  action: 'assistant_session.created',
  target: { type: 'assistant_session', id: session.id },
}));
