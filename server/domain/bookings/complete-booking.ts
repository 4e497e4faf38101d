import type { TenantDb } from '@/server/db/tenant-scope';
import { transitionBooking } from './transition';

/** confirmed → completed; emits booking.completed. */
export function completeBooking(db: TenantDb, tenantId: string, input: { id: string }) {
  return transitionBooking(db, tenantId, { id: input.id, to: 'completed', event: 'booking.completed' });
}
