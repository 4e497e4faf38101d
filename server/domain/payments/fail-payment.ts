import type { TenantDb } from '@/server/db/tenant-scope';
import { transitionPayment } from './transition';

/** pending → failed; emits payment.failed. */
export function failPayment(db: TenantDb, tenantId: string, input: { id: string }) {
  return transitionPayment(db, tenantId, { id: input.id, to: 'failed', event: 'payment.failed' });
}
