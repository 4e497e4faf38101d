// Resources (staff, rooms, equipment) and their time off: admins write, agents read (the routes say
// who). A resource's calendar feed token is made with it (calendar-feed.ts).
import type { Prisma } from '@/server/db/generated/client';
import { paginate } from '@/server/db/pagination';
import type { TenantTx } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { canonicalTimeZone } from '@/server/domain/availability/time-zones';
import type { OperationContext } from '@/server/domain/context';
import { AppError, Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { PageInput } from '@/server/lib/schemas';
import { newCalendarToken } from './calendar-token';
import type { CreateResourceInput, UpdateResourceInput } from './schemas';
import { serializeResource, serializeTimeOff } from './serialize';
import { lockResourceRow } from './sql/lock-resource-row';
import { removeResourceFromServices } from './sql/remove-resource-from-services';

export async function createResource(ctx: OperationContext, input: CreateResourceInput) {
  const { db, tenantId } = ctx;
  const token = newCalendarToken();
  const row = await db.resource.create({
    data: {
      id: newId('resource'),
      tenantId,
      name: input.name,
      kind: input.kind,
      timeZone: canonicalTimeZone(input.time_zone) as string,
      weeklyHours: input.weekly_hours as Prisma.InputJsonValue,
      isActive: input.is_active,
      calendarTokenHash: token.hash,
      calendarTokenEnc: token.sealed,
    },
  });
  return serializeResource(row);
}

export function listResources(ctx: OperationContext, query: PageInput) {
  return paginate(
    query,
    ({ after, take }) => ctx.db.resource.findMany({ where: { ...after }, orderBy: { id: 'desc' }, take }),
    serializeResource,
  );
}

export async function getResource(ctx: OperationContext, input: { id: string }) {
  const row = await ctx.db.resource.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Resource');
  return serializeResource(row);
}

export async function updateResource(
  ctx: OperationContext,
  input: { id: string; changes: UpdateResourceInput },
) {
  const { changes } = input;
  const [row] = await ctx.db.resource.updateManyAndReturn({
    where: { id: input.id },
    data: {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.kind !== undefined ? { kind: changes.kind } : {}),
      ...(changes.time_zone !== undefined
        ? { timeZone: canonicalTimeZone(changes.time_zone) as string }
        : {}),
      ...(changes.weekly_hours !== undefined
        ? { weeklyHours: changes.weekly_hours as Prisma.InputJsonValue }
        : {}),
      ...(changes.is_active !== undefined ? { isActive: changes.is_active } : {}),
    },
  });
  if (!row) throw Errors.notFound('Resource');
  return serializeResource(row);
}

/**
 * Deletes a resource with no future pending or confirmed booking (409 resource_in_use otherwise),
 * with its time off; services stop offering it. The resource row is locked first, so a booking placed
 * on it at the same moment either commits before (and the delete refuses) or finds it gone.
 */
export async function deleteResource(ctx: OperationContext, input: { id: string }) {
  await transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const locked = await lockResourceRow.rows(tx, ctx.tenantId, input.id);
    if (locked.length === 0) throw Errors.notFound('Resource');
    const future = await db.booking.count({
      where: { resourceId: input.id, status: { in: ['pending', 'confirmed'] }, endAt: { gt: new Date() } },
    });
    if (future > 0) {
      throw new AppError(
        'resource_in_use',
        `The resource has ${future} future pending or confirmed booking(s): cancel or move them first`,
      );
    }
    await removeResourceFromServices.execute(tx, ctx.tenantId, input.id);
    await db.timeOff.deleteMany({ where: { resourceId: input.id } });
    await db.resource.delete({ where: { id: input.id } });
  });
}

async function requireResource(tx: Pick<TenantTx, 'resource'>, id: string) {
  const row = await tx.resource.findUnique({ where: { id }, select: { id: true } });
  if (!row) throw Errors.notFound('Resource');
}

export async function createTimeOff(
  ctx: OperationContext,
  input: { resourceId: string; start_at: string; end_at: string; reason?: string | null },
) {
  const { db, tenantId } = ctx;
  await requireResource(db, input.resourceId);
  const row = await db.timeOff.create({
    data: {
      id: newId('timeOff'),
      tenantId,
      resourceId: input.resourceId,
      startAt: new Date(input.start_at),
      endAt: new Date(input.end_at),
      reason: input.reason ?? null,
    },
  });
  return serializeTimeOff(row);
}

export async function listTimeOff(
  ctx: OperationContext,
  input: { resourceId: string; from?: string; to?: string },
) {
  await requireResource(ctx.db, input.resourceId);
  const rows = await ctx.db.timeOff.findMany({
    where: {
      resourceId: input.resourceId,
      ...(input.from ? { endAt: { gt: new Date(input.from) } } : {}),
      ...(input.to ? { startAt: { lt: new Date(input.to) } } : {}),
    },
    orderBy: { startAt: 'asc' },
    take: 1000,
  });
  return { data: rows.map(serializeTimeOff) };
}

export async function deleteTimeOff(ctx: OperationContext, input: { resourceId: string; id: string }) {
  const { count } = await ctx.db.timeOff.deleteMany({
    where: { id: input.id, resourceId: input.resourceId },
  });
  if (count === 0) throw Errors.notFound('Time off');
}
