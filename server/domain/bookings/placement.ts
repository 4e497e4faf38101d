// Placing a booking of a service: the data the check needs (two queries), the order in which the
// service's resources are tried, and the write that the database itself guards. The check (inside
// working hours, notice, window, time off, buffers) is the pure engine's; the no-overlap rule is the
// exclusion constraint `bookings_no_overlap`, so two requests racing for one slot cannot both commit,
// whatever they read: the loser's insert fails with SQLSTATE 23P01 and the next resource is tried.
import { lockKey } from '@/server/db/advisory-lock';
import type { Resource, Service } from '@/server/db/generated/client';
import type { TenantTx } from '@/server/db/tenant-scope';
import type { UnitOfWork } from '@/server/db/unit-of-work';
import {
  type EngineResource,
  type Interval,
  type NotFree,
  whyNotFree,
} from '@/server/domain/availability/engine';
import { localDateOf } from '@/server/domain/availability/time-zones';
import { weeklyHoursOf } from '@/server/domain/resources/serialize';
import { engineService } from '@/server/domain/services/serialize';
import { AppError, Errors } from '@/server/lib/errors';
import { placementBlocks } from './sql/placement-blocks';

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface Candidate {
  resource: Resource;
  engine: EngineResource;
  blocks: Interval[];
  /** Pending and confirmed bookings of the resource on the local date of the start. */
  bookingsThatDay: number;
}

export function engineResource(r: Resource): EngineResource {
  return { id: r.id, timeZone: r.timeZone, weeklyHours: weeklyHoursOf(r) };
}

/** The service, active, or 422 naming service_id. */
export async function activeService(db: Pick<TenantTx, 'service'>, serviceId: string): Promise<Service> {
  const service = await db.service.findUnique({ where: { id: serviceId } });
  if (!service) throw Errors.validation([{ path: 'service_id', message: 'No such service' }]);
  if (!service.isActive)
    throw Errors.validation([{ path: 'service_id', message: 'The service is not active' }]);
  return service;
}

/**
 * The service's active resources (or only `resourceId`, 422 when it is not one of them) with their
 * blocks around [start, end) and their count of bookings that day: two queries.
 */
export async function loadCandidates(
  db: TenantTx,
  input: { service: Service; start: number; resourceId?: string; excludeBookingId?: string },
): Promise<Candidate[]> {
  const { service, start } = input;
  if (input.resourceId && !service.resourceIds.includes(input.resourceId)) {
    throw Errors.validation([{ path: 'resource_id', message: 'Not a resource of this service' }]);
  }
  const ids = input.resourceId ? [input.resourceId] : service.resourceIds;
  const resources = await db.resource.findMany({ where: { id: { in: ids }, isActive: true } });
  if (input.resourceId && resources.length === 0) {
    throw Errors.validation([{ path: 'resource_id', message: 'The resource is not active' }]);
  }
  const end = start + service.durationMinutes * MINUTE;
  // Around the booking: its buffers, another booking's (≤ 32 h long), and the local day for the count.
  const from = new Date(start - 2 * DAY);
  const until = new Date(end + 2 * DAY);
  const rows = await placementBlocks.rows(
    db,
    service.tenantId,
    resources.map((r) => r.id),
    input.excludeBookingId ?? '',
    from,
    until,
  );
  const order = new Map(ids.map((id, i) => [id, i]));
  return resources
    .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
    .map((resource) => {
      const own = rows.filter((r) => r.resource_id === resource.id);
      const day = localDateOf(start, resource.timeZone);
      return {
        resource,
        engine: engineResource(resource),
        blocks: own.map((r) => ({ from: r.from_at.getTime(), until: r.until_at.getTime() })),
        bookingsThatDay: own.filter(
          (r) => r.kind === 'booking' && localDateOf(r.start_at.getTime(), resource.timeZone) === day,
        ).length,
      };
    });
}

/** Free candidates in the order to try: fewest bookings that day first (the service's order breaks ties). */
export function freeInOrder(
  service: Service,
  candidates: Candidate[],
  start: number,
  now: number,
): { free: Candidate[]; reasons: NotFree[] } {
  const reasons: NotFree[] = [];
  const free = candidates.filter((c) => {
    const why = whyNotFree({
      resource: c.engine,
      blocks: c.blocks,
      service: engineService(service),
      start,
      now,
    });
    if (why) reasons.push(why);
    return why === null;
  });
  return { free: free.sort((a, b) => a.bookingsThatDay - b.bookingsThatDay), reasons };
}

/** The blocked interval of a booking of `service` at `start`. */
export function blockedInterval(
  service: Service,
  start: number,
): { startAt: Date; endAt: Date; blockedFrom: Date; blockedUntil: Date } {
  const end = start + service.durationMinutes * MINUTE;
  return {
    startAt: new Date(start),
    endAt: new Date(end),
    blockedFrom: new Date(start - service.bufferBeforeMinutes * MINUTE),
    blockedUntil: new Date(end + service.bufferAfterMinutes * MINUTE),
  };
}

/**
 * Serialises the writes that place bookings on one resource (a transaction-level advisory lock).
 * Correctness does not rest on it, the exclusion constraint does (a placement checks freedom before
 * taking it); it keeps racing inserts of overlapping intervals from each waiting for the other's
 * uncommitted row, which PostgreSQL can only end by aborting one as a deadlock.
 */
export function lockResource(tx: UnitOfWork, resourceId: string): Promise<void> {
  return lockKey(tx, `booking:${tx.tenantId}:${resourceId}`);
}

/** PostgreSQL refused the write because of the exclusion constraint (SQLSTATE 23P01). */
export function isOverlapRefusal(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e)) return false;
    seen.add(e);
    const o = e as Record<string, unknown>;
    if (o.code === '23P01' || o.originalCode === '23P01') return true;
    if (typeof o.message === 'string' && /23P01|bookings_no_overlap/.test(o.message)) return true;
    return visit(o.cause) || visit(o.meta) || visit(o.error);
  };
  return visit(error);
}

/**
 * PostgreSQL broke a deadlock or write conflict by aborting this transaction: two inserts that would
 * violate the exclusion constraint can each wait for the other. Nothing was written; the same
 * attempt is simply made again (it then commits, or meets the winner's row as 23P01).
 */
export function isRetryableConflict(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e)) return false;
    seen.add(e);
    const o = e as Record<string, unknown>;
    // P2034: a write conflict or deadlock; P2028: the transaction could not start in time, or ran past
    // its deadline while waiting for a racing insert under heavy load (it was rolled back).
    if (o.code === 'P2034' || o.code === 'P2028' || o.code === '40P01' || o.code === '40001') return true;
    if (o.originalCode === '40P01' || o.originalCode === '40001') return true;
    return visit(o.cause) || visit(o.meta) || visit(o.driverAdapterError);
  };
  return visit(error);
}

const RETRIES = 6;

/**
 * Interactive transactions of a placement: an insert may wait for a racing insert of the same
 * resource to commit, so they get more room than Prisma's defaults (2 s to start, 5 s to finish).
 */
export const PLACEMENT_TX = { maxWait: 10_000, timeout: 20_000 };

/**
 * Runs `write` for each candidate in order until one commits: a 23P01 (taken concurrently) moves to
 * the next candidate, a deadlock or write conflict tries the same one again. Null when none was free.
 */
export async function firstThatCommits<C, T>(
  candidates: C[],
  write: (candidate: C) => Promise<T>,
): Promise<T | null> {
  for (const candidate of candidates) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write(candidate);
      } catch (error) {
        if (isOverlapRefusal(error)) break;
        if (isRetryableConflict(error) && attempt < RETRIES) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
          continue;
        }
        throw error;
      }
    }
  }
  return null;
}

export function slotUnavailable(detail = 'No resource of the service is free at that time'): AppError {
  return new AppError('slot_unavailable', detail);
}

const WHY: Record<NotFree, string> = {
  notice: 'too soon for the service’s minimum notice',
  window: 'beyond the service’s booking window',
  outside_hours: 'outside working hours',
  blocked: 'taken (another booking, its buffers, or time off)',
};

/** 409 slot_unavailable, saying why when every candidate failed for one reason. */
export function refusalFor(reasons: NotFree[]): AppError {
  const [first] = reasons;
  if (first && reasons.every((r) => r === first))
    return slotUnavailable(`No resource of the service is free then: ${WHY[first]}`);
  return slotUnavailable();
}
