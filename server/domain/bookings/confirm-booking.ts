import type { TenantDb } from '@/server/db/tenant-scope';
import { transitionBooking } from './transition';

/** pending → confirmed; emits booking.confirmed. */
export function confirmBooking(db: TenantDb, tenantId: string, input: { id: string }) {
  return transitionBooking(db, tenantId, { id: input.id, to: 'confirmed', event: 'booking.confirmed' });
}
