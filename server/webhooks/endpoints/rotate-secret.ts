import { audited } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { newEncryptedSecret, ROTATION_OVERLAP_MS } from '@/server/webhooks/secrets';
import { findEndpointOr404 } from './get-endpoint';

/**
 * New signing secret now; the previous one keeps signing alongside it for 24 h, so receivers can
 * switch over without dropping deliveries. Rotating again within the window replaces the older one.
 */
async function rotateSecretUnaudited(ctx: OperationContext, input: { id: string }) {
  const { db } = ctx;
  const current = await findEndpointOr404(db, input.id);
  const { secret, secretEnc } = newEncryptedSecret();
  const expiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS);
  await db.webhookEndpoint.update({
    where: { id: current.id },
    data: { secretEnc, previousSecretEnc: current.secretEnc, previousSecretExpiresAt: expiresAt },
  });
  return { webhook_secret: secret, previous_secret_expires_at: expiresAt.toISOString() };
}

/** rotateSecret, in one transaction with its audit entry (webhook.secret_rotated). */
export const rotateSecret = audited(rotateSecretUnaudited, (input) => ({
  action: 'webhook.secret_rotated',
  target: { type: 'webhook_endpoint', id: input.id },
}));
