// Attempts per hour or day with their latency (GET /webhooks/{id}/stats, the dashboard's charts).
// Attempt rows carry their endpoint, so one endpoint's window is an index-only range scan of
// delivery_attempts (tenant_id, endpoint_id, started_at, succeeded, latency_ms); the tenant-wide
// overview reads the same index, one endpoint after the other. Closed buckets are computed once and
// kept (delivery_stats_rollups), so a 30-day window reads 29 stored days and counts only today.
import type { z } from 'zod';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { findEndpointOr404 } from '@/server/webhooks/endpoints/get-endpoint';
import { type DeliveryStats, STATS_MAX_BUCKETS, type StatsQuery } from '@/server/webhooks/schemas';
import { type EndpointAttemptBucketsRow, endpointAttemptBuckets } from './sql/endpoint-attempt-buckets';
import { tenantAttemptBuckets } from './sql/tenant-attempt-buckets';

export type StatsInput = z.input<typeof StatsQuery>;
export type DeliveryStatsResult = z.output<typeof DeliveryStats>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function truncate(time: number, bucket: 'hour' | 'day'): number {
  const size = bucket === 'hour' ? HOUR : DAY;
  return Math.floor(time / size) * size;
}

/** The window and its buckets, or 422 naming the parameter. */
function statsWindow(input: StatsInput, now = Date.now()) {
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

type BucketRow = EndpointAttemptBucketsRow;

/**
 * A bucket that ended this long ago is closed: an attempt is recorded within its deadline (at most
 * 60 s) of its start, so no attempt can still arrive for it, and its figures are kept.
 */
export const CLOSED_AFTER_MS = 5 * 60_000;

/** The attempts of [from, to) grouped by bucket, from the attempts index (./sql/*-attempt-buckets.sql). */
function attemptBuckets(
  ctx: OperationContext,
  endpointId: string | null,
  bucket: 'hour' | 'day',
  from: number,
  to: number,
): Promise<BucketRow[]> {
  // Raw SQL is not tenant-scoped by the extension: the statements name the tenant.
  return endpointId === null
    ? tenantAttemptBuckets.rows(ctx.db, bucket, ctx.tenantId, new Date(from), new Date(to))
    : endpointAttemptBuckets.rows(ctx.db, bucket, ctx.tenantId, endpointId, new Date(from), new Date(to));
}

/** Consecutive starts as [from, to) ranges clipped to the window. */
function ranges(starts: number[], size: number, since: number, until: number): [number, number][] {
  const out: [number, number][] = [];
  for (const start of starts) {
    const from = Math.max(start, since);
    const to = Math.min(start + size, until);
    const last = out[out.length - 1];
    if (last && last[1] === from) last[1] = to;
    else out.push([from, to]);
  }
  return out;
}

/**
 * Every bucket of the window. Closed buckets wholly inside the window come from
 * delivery_stats_rollups (computed from the attempts the first time they are asked for, then
 * kept); the others (a partial first bucket, the current ones) are counted from the attempts.
 */
async function bucketRows(ctx: OperationContext, endpointId: string | null, input: StatsInput) {
  const window = statsWindow(input);
  const { bucket, starts } = window;
  const size = bucket === 'hour' ? HOUR : DAY;
  const since = window.since.getTime();
  const until = window.until.getTime();
  const closedBefore = Date.now() - CLOSED_AFTER_MS;
  const keep = (start: number) => start >= since && start + size <= until && start + size <= closedBefore;
  const kept = starts.filter(keep);
  const live = starts.filter((start) => !keep(start));
  const key = { tenantId: ctx.tenantId, endpointId: endpointId ?? '', bucket };

  const counted = async (list: number[]) => {
    const found = new Map<number, BucketRow>();
    for (const [from, to] of ranges(list, size, since, until)) {
      for (const row of await attemptBuckets(ctx, endpointId, bucket, from, to))
        found.set(row.start.getTime(), row);
    }
    return found;
  };
  // The stored buckets and the live ones are read at once; only missing stored ones wait for both.
  const [stored, current] = await Promise.all([
    kept.length === 0
      ? []
      : ctx.db.deliveryStatsRollup.findMany({
          where: { ...key, start: { gte: new Date(kept[0]), lte: new Date(kept[kept.length - 1]) } },
        }),
    counted(live),
  ]);
  const rows = new Map<number, BucketRow>(
    stored.map((r) => [
      r.start.getTime(),
      { start: r.start, succeeded: r.succeeded, failed: r.failed, p50: r.latencyP50Ms, p95: r.latencyP95Ms },
    ]),
  );
  const missing = kept.filter((start) => !rows.has(start));
  const fresh = await counted(missing);
  if (missing.length > 0) {
    const computed = missing.map((start) => ({
      ...key,
      start: new Date(start),
      succeeded: fresh.get(start)?.succeeded ?? 0,
      failed: fresh.get(start)?.failed ?? 0,
      latencyP50Ms: fresh.get(start)?.p50 ?? null,
      latencyP95Ms: fresh.get(start)?.p95 ?? null,
    }));
    // Two requests may compute the same bucket: the figures are equal, the first one stays.
    await ctx.db.deliveryStatsRollup.createMany({ data: computed, skipDuplicates: true });
  }
  for (const [start, row] of [...fresh, ...current]) rows.set(start, row);
  return { window, rows };
}

async function stats(
  ctx: OperationContext,
  endpointId: string | null,
  input: StatsInput,
): Promise<DeliveryStatsResult> {
  const { db } = ctx;
  const [{ window, rows: byStart }, pending] = await Promise.all([
    bucketRows(ctx, endpointId, input),
    db.delivery.count({ where: { status: 'pending', ...(endpointId === null ? {} : { endpointId }) } }),
  ]);
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
  // First: the stats store the closed buckets they compute, which only an existing endpoint may get.
  await findEndpointOr404(ctx.db, input.id);
  return stats(ctx, input.id, input);
}

/** Every attempt of the tenant (the dashboard's overview). */
export function tenantDeliveryStats(ctx: OperationContext, input: StatsInput) {
  return stats(ctx, null, input);
}
