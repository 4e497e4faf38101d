// Open holds per tenant: every hold (a pending booking with hold_expires_at, free-form or of a
// service, the caller's or a paid service's) is a timer the runtime must fire, so a tenant may have at
// most MAX_OPEN_HOLDS_PER_TENANT of them open at once; one more answers 409 hold_limit_reached and
// stores nothing. A hold stops counting when it is confirmed, cancelled or expired.
import { settings } from '@/server/config/settings';
import { lockTenantRows } from '@/server/db/advisory-lock';
import type { Queryable } from '@/server/db/typed-sql';
import type { UnitOfWork } from '@/server/db/unit-of-work';
import { Errors } from '@/server/lib/errors';
import { countOpenHolds } from './sql/count-open-holds';

function holdLimitReached(limit: number) {
  return Errors.conflict(
    'hold_limit_reached',
    `This tenant already has ${limit} open holds (pending bookings with hold_expires_at), the most it may ` +
      'have; confirm, cancel or let some expire before holding another time',
  );
}

async function openHolds(db: Queryable, tenantId: string): Promise<number> {
  const [row] = await countOpenHolds.rows(db, tenantId);
  return row?.open ?? 0;
}

/**
 * In the transaction that inserts a hold, before the insert: concurrent holds of one tenant are
 * counted one after the other (as API keys and webhook endpoints are), so the cap cannot be overtaken.
 */
export async function assertHoldAllowed(tx: UnitOfWork): Promise<void> {
  await lockTenantRows(tx, 'booking_holds');
  const limit = settings().MAX_OPEN_HOLDS_PER_TENANT;
  if ((await openHolds(tx, tx.tenantId)) >= limit) throw holdLimitReached(limit);
}

/**
 * The same count without the lock, before a paid booking asks Stripe for a Checkout Session: no
 * session is opened for a hold that would be refused (the transaction still decides).
 */
export async function refuseWhenHoldsFull(db: Queryable, tenantId: string): Promise<void> {
  const limit = settings().MAX_OPEN_HOLDS_PER_TENANT;
  if ((await openHolds(db, tenantId)) >= limit) throw holdLimitReached(limit);
}
