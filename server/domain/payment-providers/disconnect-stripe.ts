import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';

/**
 * Forgets the tenant's Stripe keys. Stripe's webhooks for the tenant are refused from then on (400);
 * Stripe payments stay as they are, and refunding them needs Stripe connected again (409
 * payment_provider_missing until then).
 */
async function disconnectStripeUnaudited(
  ctx: OperationContext,
  _input: Record<string, never>,
): Promise<void> {
  const { count } = await ctx.db.paymentProviderConnection.deleteMany({ where: { provider: 'stripe' } });
  if (count === 0) throw Errors.notFound('Stripe connection');
}

/** disconnectStripe, in one transaction with its audit entry (payment_provider.disconnected). */
export const disconnectStripe = audited(disconnectStripeUnaudited, () => ({
  action: 'payment_provider.disconnected',
  target: { type: 'payment_provider', id: 'stripe' },
}));
