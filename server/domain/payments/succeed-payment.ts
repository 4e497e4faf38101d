import type { OperationContext } from '@/server/domain/context';
import { transitionPayment } from './transition';

/** A manual payment: pending → succeeded (optionally recording the caller's reference); emits payment.succeeded. */
export function succeedPayment(ctx: OperationContext, input: { id: string; providerRef?: string }) {
  return transitionPayment(ctx, {
    id: input.id,
    to: 'succeeded',
    event: 'payment.succeeded',
    manualOnly: true,
    providerRef: input.providerRef,
  });
}
