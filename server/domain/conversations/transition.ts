import type { EventType } from '@/server/client-safe/event-catalog';
import type { Prisma } from '@/server/db/generated/client';
import type { UnitOfWork } from '@/server/db/unit-of-work';
import { Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { planConversationTimers } from './conversation-timers';
import { type ConversationResource, serializeConversation } from './serialize';

/**
 * Conversation state changes. `allowed` is the guard of the conditional update, so of two
 * concurrent changes only one can match; the event is written in the same transaction.
 */
export async function transitionConversation(
  tx: UnitOfWork,
  input: {
    id: string;
    allowed: Prisma.ConversationWhereInput;
    data: Prisma.ConversationUpdateManyMutationInput;
    event: EventType;
    refusal: (current: { status: string; handledBy: string }) => string;
  },
): Promise<ConversationResource> {
  const db = await tx.orm();
  const [row] = await db.conversation.updateManyAndReturn({
    where: { id: input.id, ...input.allowed },
    data: input.data,
  });
  if (!row) {
    const current = await db.conversation.findUnique({
      where: { id: input.id },
      select: { status: true, handledBy: true },
    });
    if (!current) throw Errors.notFound('Conversation');
    throw Errors.invalidTransition(input.refusal(current));
  }
  await planConversationTimers(tx, row);
  const object = serializeConversation(row);
  await recordEvent(tx, { tenantId: tx.tenantId, type: input.event, object });
  return object;
}
