// The tenant's Stripe secrets, decrypted for the one call that needs them (never returned, never logged).
import type { TenantDb, TenantTx } from '@/server/db/tenant-scope';
import type { OperationContext } from '@/server/domain/context';
import { decryptSecret } from '@/server/security/secret-box';
import { providerMissing } from './provider-errors';

export interface StripeConnection {
  accountId: string;
  secretKey: string;
  webhookSecret: string;
}

export async function findStripeConnection(db: TenantDb | TenantTx): Promise<StripeConnection | null> {
  const row = await db.paymentProviderConnection.findFirst({ where: { provider: 'stripe' } });
  if (!row) return null;
  return {
    accountId: row.accountId,
    secretKey: decryptSecret(row.secretKeyEnc),
    webhookSecret: decryptSecret(row.webhookSecretEnc),
  };
}

/** The connection, or 409 payment_provider_missing. */
export async function requireStripeConnection(ctx: OperationContext): Promise<StripeConnection> {
  const connection = await findStripeConnection(ctx.db);
  if (!connection) throw providerMissing();
  return connection;
}
