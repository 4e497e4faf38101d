import type { TenantDb } from '@/server/db/tenant-scope';
import { transitionBooking } from './transition';

/** pending | confirmed → cancelled, keeping the reason; emits booking.cancelled. */
export function cancelBooking(db: TenantDb, tenantId: string, input: { id: string; reason?: string | null }) {
  return transitionBooking(db, tenantId, {
    id: input.id,
    to: 'cancelled',
    event: 'booking.cancelled',
    cancellationReason: input.reason ?? null,
  });
}
