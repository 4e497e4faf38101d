// The worker engine's queue is the deliveries table itself: a pending delivery whose
// `next_attempt_at` has come is due. Workers claim due deliveries one claim at a time under a lock
// (see below), so any number of processes share one database; a claim is a row in `delivery_claims`
// that holds its delivery until its `locked_until`, and recording the attempt ends it. A claim of a
// process that died simply lapses, so its deliveries run again (at least once, never lost) without
// any heartbeat or unlock step.
//
// Claims are fair (./sql/claim-deliveries.sql): a claimed delivery is in flight, no tenant and no
// endpoint may have more in flight than its cap (WEBHOOK_MAX_IN_FLIGHT_PER_TENANT, _PER_ENDPOINT),
// and a claim takes one delivery of each tenant in turn. Claims run one at a time across all
// workers (./sql/lock-claims.sql), so the caps hold for the whole database, not per process.
import type pg from 'pg';
import { pgTransaction } from '@/server/db/pool';
import type { LoadedDelivery } from '@/server/webhooks/attempt/run-attempt';
import { claimDeliveries } from './sql/claim-deliveries';
import { lockClaims } from './sql/lock-claims';

/**
 * How long a claim holds its delivery. A worker starts a claimed delivery only while at least
 * `WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS` of the claim remain, so the attempt, its deadline and its
 * record fit inside the claim; a delivery of a dead process runs again within this time.
 */
export const CLAIM_MARGIN_MS = 10_000;
export function claimLeaseMs(timeoutMs: number): number {
  return 2 * (timeoutMs + CLAIM_MARGIN_MS);
}

export interface Caps {
  perTenant: number;
  perEndpoint: number;
}

/** Claims up to `limit` due deliveries for `leaseMs`, within the caps, in the order to start them. */
export async function claimDue(
  pool: pg.Pool,
  limit: number,
  leaseMs: number,
  caps: Caps,
): Promise<LoadedDelivery[]> {
  return pgTransaction(pool, async (client) => {
    await lockClaims.pgRows(client, [], { prepared: true });
    return claimDeliveries.pgRows(client, [limit, leaseMs, caps.perTenant, caps.perEndpoint], {
      prepared: true,
    });
  });
}
