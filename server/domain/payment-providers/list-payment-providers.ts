import type { OperationContext } from '@/server/domain/context';
import { serializeConnection, stripeWebhookUrl } from './serialize';

/**
 * The tenant's connected providers (at most one: Stripe), and the URL Stripe must send its events to,
 * known before Stripe is connected (its endpoint is created first; its signing secret comes from it).
 */
export async function listPaymentProviders(ctx: OperationContext) {
  const rows = await ctx.db.paymentProviderConnection.findMany({ orderBy: { provider: 'asc' } });
  return { data: rows.map(serializeConnection), stripe_webhook_url: stripeWebhookUrl(ctx.tenantId) };
}
