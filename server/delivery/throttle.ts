// Per-endpoint throttle (CONTRACT §12 `rate_limit_per_second`), one mechanism for both engines: the
// endpoint row holds `throttle_next_at`, the earliest time its next attempt may start. An attempt
// takes the slot only when that time has come, in one atomic statement, and moves it one spacing
// ahead; otherwise it is told when to come back (the worker reschedules the delivery to then, the
// Inngest function sleeps until then) and nothing is sent or recorded. Slots are taken at send time,
// never reserved ahead, so deliveries that wake late cannot bunch up into one second.
import { forTenant } from '@/server/db/tenant-scope';

/**
 * The spacing between two attempts at `perSecond`: 1/r plus 5 %, so that r + 1 attempts always
 * span more than one second even when the network delays one of them by up to 5 % of the spacing.
 */
export function throttleSpacingMicros(perSecond: number): number {
  return Math.ceil((1_000_000 / perSecond) * 1.05);
}

/** Takes the endpoint's next slot if it has come (null: send now), else the time to come back. */
export async function takeThrottleSlot(
  tenantId: string,
  endpointId: string,
  perSecond: number,
): Promise<Date | null> {
  const db = forTenant(tenantId);
  // Raw SQL: the tenant filter is explicit. The read of the current slot sees the statement's snapshot,
  // so after a lost race it may name a time already past: the caller simply comes back at once.
  const [row] = await db.$queryRaw<{ taken: boolean; next_at: Date | null }[]>`
    with taken as (
      update webhook_endpoints set throttle_next_at = clock_timestamp() + ${throttleSpacingMicros(perSecond)} * interval '1 microsecond'
      where id = ${endpointId} and tenant_id = ${tenantId}::uuid
        and (throttle_next_at is null or throttle_next_at <= clock_timestamp())
      returning id
    )
    select exists (select 1 from taken) as taken,
      (select throttle_next_at from webhook_endpoints where id = ${endpointId} and tenant_id = ${tenantId}::uuid) as next_at`;
  if (!row || row.taken || !row.next_at) return null;
  return row.next_at;
}
