import type { TenantDb } from '@/server/db/tenant-scope';
import { transitionPayment } from './transition';

/** pending → succeeded (optionally recording the provider's reference); emits payment.succeeded. */
export function succeedPayment(db: TenantDb, tenantId: string, input: { id: string; providerRef?: string }) {
  return transitionPayment(db, tenantId, {
    id: input.id,
    to: 'succeeded',
    event: 'payment.succeeded',
    providerRef: input.providerRef,
  });
}
