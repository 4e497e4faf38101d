import type { TenantDb } from '@/server/db/tenant-scope';
import { findEndpointOr404 } from './get-endpoint';
import { newEncryptedSecret, ROTATION_OVERLAP_MS } from './secrets';

/**
 * New signing secret now; the previous one keeps signing alongside it for 24 h, so receivers can
 * switch over without dropping deliveries. Rotating again within the window replaces the older one.
 */
export async function rotateSecret(db: TenantDb, _tenantId: string, input: { id: string }) {
  const current = await findEndpointOr404(db, input.id);
  const { secret, secretEnc } = newEncryptedSecret();
  const expiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS);
  await db.webhookEndpoint.update({
    where: { id: current.id },
    data: { secretEnc, previousSecretEnc: current.secretEnc, previousSecretExpiresAt: expiresAt },
  });
  return { webhook_secret: secret, previous_secret_expires_at: expiresAt.toISOString() };
}
