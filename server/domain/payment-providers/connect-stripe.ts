import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { AppError } from '@/server/lib/errors';
import { encryptSecret } from '@/server/security/secret-box';
import { retrieveAccount } from '@/server/stripe/account';
import { providerUnavailable } from './provider-errors';
import type { ConnectStripeInput, PaymentProviderConnection } from './schemas';
import { serializeConnection } from './serialize';

const last4 = (secret: string) => secret.slice(-4);

async function saveStripeConnection(
  ctx: OperationContext,
  input: ConnectStripeInput & { accountId: string },
): Promise<PaymentProviderConnection> {
  const { db, tenantId } = ctx;
  const fields = {
    accountId: input.accountId,
    livemode: input.secret_key.includes('_live_'),
    secretKeyEnc: encryptSecret(input.secret_key),
    secretKeyLast4: last4(input.secret_key),
    webhookSecretEnc: encryptSecret(input.webhook_secret),
    webhookSecretLast4: last4(input.webhook_secret),
    connectedAt: new Date(),
  };
  const row = await db.paymentProviderConnection.upsert({
    where: { tenantId_provider: { tenantId, provider: 'stripe' } },
    create: { tenantId, provider: 'stripe', ...fields },
    update: fields,
  });
  return serializeConnection(row);
}

/** Stores the keys with their audit entry (payment_provider.connected), in one transaction. */
const saveAudited = audited(saveStripeConnection, () => ({
  action: 'payment_provider.connected',
  target: { type: 'payment_provider', id: 'stripe' },
}));

/**
 * Connects (or reconnects, replacing both secrets) the tenant's Stripe account. The secret key must be
 * accepted by Stripe (GET /v1/account), else 422 provider_verification_failed and nothing is stored;
 * Stripe out of reach is 502 payment_provider_unavailable. Both secrets are stored encrypted and never
 * returned. The webhook secret cannot be checked with Stripe's API: the first event proves it.
 */
export async function connectStripe(
  ctx: OperationContext,
  input: ConnectStripeInput,
): Promise<PaymentProviderConnection> {
  const check = await retrieveAccount(input.secret_key);
  if (!check.ok) {
    if (check.failure.kind === 'unavailable') throw providerUnavailable(check.failure.message);
    const reason = check.failure.message;
    throw new AppError('provider_verification_failed', `Stripe did not accept the secret key: ${reason}`, {
      errors: [{ path: 'secret_key', message: reason }],
    });
  }
  return saveAudited(ctx, { ...input, accountId: check.accountId });
}
