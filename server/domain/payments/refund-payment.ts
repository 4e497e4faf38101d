import type { OperationContext } from '@/server/domain/context';
import { transitionPayment } from './transition';

/** succeeded → refunded (in full); emits payment.refunded. */
export function refundPayment(ctx: OperationContext, input: { id: string }) {
  return transitionPayment(ctx, { id: input.id, to: 'refunded', event: 'payment.refunded' });
}
