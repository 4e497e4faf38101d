import { publicBaseUrl } from '@/server/config/public-url';
import type { PaymentProviderConnection as Row } from '@/server/db/generated/client';
import type { PaymentProviderConnection } from './schemas';

/** Where Stripe must send this tenant's events (the public route of server/api/v1/payment-providers.ts). */
export function stripeWebhookUrl(tenantId: string): string {
  return `${publicBaseUrl()}/api/v1/payment-providers/stripe/webhook/${tenantId}`;
}

/** A connection as the API shows it: never a secret, only the last 4 characters of each. */
export function serializeConnection(row: Row): PaymentProviderConnection {
  return {
    provider: 'stripe',
    account_id: row.accountId,
    livemode: row.livemode,
    webhook_url: stripeWebhookUrl(row.tenantId),
    secret_key_last4: row.secretKeyLast4,
    webhook_secret_last4: row.webhookSecretLast4,
    connected_at: row.connectedAt.toISOString(),
  };
}
