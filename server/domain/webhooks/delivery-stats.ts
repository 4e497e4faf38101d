// Attempts per hour or day with their latency (GET /webhooks/{id}/stats, the dashboard's charts).
// Attempt rows carry their endpoint, so one endpoint's window is an index-only range scan of
// delivery_attempts (tenant_id, endpoint_id, started_at, succeeded, latency_ms); the tenant-wide
// overview reads the same index, one endpoint after the other.
import type { z } from 'zod';
import { Prisma } from '@/server/db/generated/client';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { findEndpointOr404 } from './get-endpoint';
import { type DeliveryStats, STATS_MAX_BUCKETS, type StatsQuery } from './schemas';

export type StatsInput = z.input<typeof StatsQuery>;
export type DeliveryStatsResult = z.output<typeof DeliveryStats>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function truncate(time: number, bucket: 'hour' | 'day'): number {
  const size = bucket === 'hour' ? HOUR : DAY;
  return Math.floor(time / size) * size;
}

/** The window and its buckets, or 422 naming the parameter. */
export function statsWindow(input: StatsInput, now = Date.now()) {
  const bucket = input.bucket ?? 'hour';
  const size = bucket === 'hour' ? HOUR : DAY;
  const until = input.until ? Date.parse(input.until) : now;
  const since = input.since
    ? Date.parse(input.since)
    : truncate(until - 1, bucket) - (bucket === 'hour' ? 23 : 29) * size;
  if (until <= since) throw Errors.validation([{ path: 'until', message: 'Must be after since' }]);
  const starts: number[] = [];
  for (let start = truncate(since, bucket); start < until; start += size) {
    if (starts.length === STATS_MAX_BUCKETS) {
      throw Errors.validation([
        {
          path: 'bucket',
          message: `The window holds more than ${STATS_MAX_BUCKETS} buckets; use a larger bucket or a shorter window`,
        },
      ]);
    }
    starts.push(start);
  }
  return { bucket, since: new Date(since), until: new Date(until), starts };
}

interface BucketRow {
  start: Date;
  succeeded: number;
  failed: number;
  p50: number | null;
  p95: number | null;
}

async function stats(
  ctx: OperationContext,
  endpointId: string | null,
  input: StatsInput,
): Promise<DeliveryStatsResult> {
  const { db, tenantId } = ctx;
  const window = statsWindow(input);
  const onEndpoint = endpointId === null ? Prisma.empty : Prisma.sql`and a.endpoint_id = ${endpointId}`;
  // Raw SQL is not tenant-scoped by the extension: the tenant filter is explicit here.
  const [rows, pending] = await Promise.all([
    db.$queryRaw<BucketRow[]>`
      select date_trunc(${window.bucket}, a.started_at, 'UTC') as start,
        count(*) filter (where a.succeeded)::int as succeeded,
        count(*) filter (where not a.succeeded)::int as failed,
        percentile_disc(0.5) within group (order by a.latency_ms) as p50,
        percentile_disc(0.95) within group (order by a.latency_ms) as p95
      from delivery_attempts a
      where a.tenant_id = ${tenantId}::uuid ${onEndpoint}
        and a.started_at >= ${window.since} and a.started_at < ${window.until}
      group by 1`,
    db.delivery.count({ where: { status: 'pending', ...(endpointId === null ? {} : { endpointId }) } }),
  ]);
  const byStart = new Map(rows.map((row) => [row.start.getTime(), row]));
  const buckets = window.starts.map((start) => {
    const row = byStart.get(start);
    return {
      start: new Date(start).toISOString(),
      succeeded: row?.succeeded ?? 0,
      failed: row?.failed ?? 0,
      latency_p50_ms: row?.p50 ?? null,
      latency_p95_ms: row?.p95 ?? null,
    };
  });
  return {
    buckets,
    totals: {
      succeeded: buckets.reduce((sum, b) => sum + b.succeeded, 0),
      failed: buckets.reduce((sum, b) => sum + b.failed, 0),
      pending,
    },
  };
}

/** One endpoint's attempts (404 for an endpoint of another tenant). */
export async function endpointDeliveryStats(ctx: OperationContext, input: StatsInput & { id: string }) {
  await findEndpointOr404(ctx.db, input.id);
  return stats(ctx, input.id, input);
}

/** Every attempt of the tenant (the dashboard's overview). */
export function tenantDeliveryStats(ctx: OperationContext, input: StatsInput) {
  return stats(ctx, null, input);
}
