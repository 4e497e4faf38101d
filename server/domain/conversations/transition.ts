import type { EventType } from '@/server/client-safe/event-catalog';
import type { Prisma } from '@/server/db/generated/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import { Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { planConversationTimers } from './conversation-timers';
import { type ConversationResource, serializeConversation } from './serialize';

/**
 * Conversation state changes. `allowed` is the guard of the conditional update, so of two
 * concurrent changes only one can match; the event is written in the same transaction.
 */
export async function transitionConversation(
  tx: TenantTx,
  tenantId: string,
  input: {
    id: string;
    allowed: Prisma.ConversationWhereInput;
    data: Prisma.ConversationUpdateManyMutationInput;
    event: EventType;
    refusal: (current: { status: string; handledBy: string }) => string;
  },
): Promise<ConversationResource> {
  const [row] = await tx.conversation.updateManyAndReturn({
    where: { id: input.id, ...input.allowed },
    data: input.data,
  });
  if (!row) {
    const current = await tx.conversation.findUnique({
      where: { id: input.id },
      select: { status: true, handledBy: true },
    });
    if (!current) throw Errors.notFound('Conversation');
    throw Errors.invalidTransition(input.refusal(current));
  }
  await planConversationTimers(tx, row);
  const object = serializeConversation(row);
  await recordEvent(tx, { tenantId, type: input.event, object });
  return object;
}
