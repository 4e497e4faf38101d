import type { TenantDb } from '@/server/db/tenant-scope';
import { transitionPayment } from './transition';

/** succeeded → refunded (in full); emits payment.refunded. */
export function refundPayment(db: TenantDb, tenantId: string, input: { id: string }) {
  return transitionPayment(db, tenantId, { id: input.id, to: 'refunded', event: 'payment.refunded' });
}
