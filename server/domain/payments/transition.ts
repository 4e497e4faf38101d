import type { EventType } from '@/server/client-safe/event-catalog';
import type { Prisma } from '@/server/db/generated/client';
import type { PaymentStatus } from '@/server/db/generated/enums';
import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { recordEvent } from '@/server/webhooks/outbox';
import { type PaymentResource, serializePayment } from './serialize';

/** pending → succeeded | failed; succeeded → refunded; failed and refunded are final. */
export const PAYMENT_TRANSITIONS: Record<'succeeded' | 'failed' | 'refunded', PaymentStatus[]> = {
  succeeded: ['pending'],
  failed: ['pending'],
  refunded: ['succeeded'],
};

export interface PaymentMove {
  id: string;
  to: keyof typeof PAYMENT_TRANSITIONS;
  event: EventType;
  /** Further columns to set with the new status. */
  data?: Prisma.PaymentUpdateManyMutationInput;
  /** Further conditions the row must meet (e.g. its provider). */
  where?: Prisma.PaymentWhereInput;
}

/**
 * One transition inside the caller's transaction: a conditional update (two concurrent changes cannot
 * both win) and its event. Answers the moved payment, or null when the row was not in a state (or did
 * not meet the conditions) to move.
 */
export async function movePayment(tx: UnitOfWork, move: PaymentMove) {
  const [row] = await (await tx.orm()).payment.updateManyAndReturn({
    where: { ...move.where, id: move.id, status: { in: PAYMENT_TRANSITIONS[move.to] } },
    data: { ...move.data, status: move.to },
  });
  if (!row) return null;
  const object = serializePayment(row);
  await recordEvent(tx, { tenantId: tx.tenantId, type: move.event, object });
  return { row, object };
}

/**
 * A transition asked for by a caller (REST, dashboard): 404 for an unknown payment, 409
 * invalid_transition when its state does not allow it. `manualOnly`: a Stripe payment follows Stripe
 * and is never moved by hand.
 */
export function transitionPayment(
  ctx: OperationContext,
  input: {
    id: string;
    to: keyof typeof PAYMENT_TRANSITIONS;
    event: EventType;
    providerRef?: string;
    manualOnly?: boolean;
    data?: Prisma.PaymentUpdateManyMutationInput;
  },
): Promise<PaymentResource> {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const moved = await movePayment(tx, {
      id: input.id,
      to: input.to,
      event: input.event,
      data: { ...input.data, ...(input.providerRef ? { providerRef: input.providerRef } : {}) },
      where: input.manualOnly ? { provider: 'manual' } : undefined,
    });
    if (moved) return moved.object;
    const current = await db.payment.findUnique({
      where: { id: input.id },
      select: { status: true, provider: true },
    });
    if (!current) throw Errors.notFound('Payment');
    if (input.manualOnly && current.provider !== 'manual') {
      throw Errors.invalidTransition(
        `A Stripe payment follows Stripe's webhooks: it becomes ${input.to} when Stripe says so, never by hand`,
      );
    }
    throw Errors.invalidTransition(`A ${current.status} payment cannot become ${input.to}`);
  });
}
