import type { OperationContext } from '@/server/domain/context';
import { serializeConnection } from './serialize';

/** The tenant's connected providers (at most one: Stripe). */
export async function listPaymentProviders(ctx: OperationContext) {
  const rows = await ctx.db.paymentProviderConnection.findMany({ orderBy: { provider: 'asc' } });
  return { data: rows.map(serializeConnection) };
}
