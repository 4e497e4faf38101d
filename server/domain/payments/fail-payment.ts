import type { OperationContext } from '@/server/domain/context';
import { transitionPayment } from './transition';

/** A manual payment: pending → failed; emits payment.failed. */
export function failPayment(ctx: OperationContext, input: { id: string }) {
  return transitionPayment(ctx, { id: input.id, to: 'failed', event: 'payment.failed', manualOnly: true });
}
