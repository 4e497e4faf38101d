// Generated from take-throttle-slot.sql by `npm run sql:types` (scripts/sql-types.ts): do not edit.
// `npm run lint` fails when it no longer matches the .sql file and the migrated database.
import { typedSql } from '@/server/db/typed-sql';

export type TakeThrottleSlotParams = [
  endpointId: string,
  tenantId: string,
  perSecond: number,
  window: string,
];

export interface TakeThrottleSlotRow {
  taken: boolean;
  nextAt: Date | null;
}

/**
 * The endpoint's throttle (attempt/throttle.ts): lets an attempt through only if fewer than
 * `perSecond` were let through within `window`, atomically under the endpoint row's lock, and keeps
 * the last `perSecond` grant times. `taken`: let through; otherwise `nextAt` is when the oldest of
 * them leaves the window.
 */
export const takeThrottleSlot = typedSql<TakeThrottleSlotParams, TakeThrottleSlotRow>({
  name: 'take-throttle-slot',
  text: `with cur as (
  select coalesce(throttle_grants, '{}') as g from webhook_endpoints
  where id = $1 and tenant_id = $2::uuid
  for update
), oldest as (
  -- The r-th most recent grant: while it is inside the window, r attempts are.
  select g, case when cardinality(g) >= $3::int then g[cardinality(g) - $3::int + 1] end as at
  from cur
), taken as (
  update webhook_endpoints w set throttle_grants = array(
      select x from (
        select x from unnest(o.g || clock_timestamp()::timestamptz(3)) as x order by x desc limit $3::int
      ) kept order by x
    )
  from oldest o
  where w.id = $1 and w.tenant_id = $2::uuid
    and (o.at is null or o.at <= clock_timestamp() - $4::interval)
  returning 1
)
select exists (select 1 from taken) as taken, (select at + $4::interval from oldest) as "nextAt"`,
  columns: ['taken', 'nextAt'],
});
