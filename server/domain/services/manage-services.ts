// Services: what can be booked, for how long, on which resources, with which buffers, notice, window,
// grid, price, payment mode and reminders. Admins write, agents read.
import type { Prisma, Service } from '@/server/db/generated/client';
import { paginate } from '@/server/db/pagination';
import type { TenantTx } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import type { OperationContext } from '@/server/domain/context';
import { Errors, type FieldError } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { PageInput } from '@/server/lib/schemas';
import type { CreateServiceInput, ReminderSpec, UpdateServiceInput } from './schemas';
import { remindersOf, serializeService } from './serialize';

interface Merged {
  resourceIds: string[];
  priceAmount: number | null;
  priceCurrency: string | null;
  payment: 'none' | 'deposit' | 'full';
  depositAmount: number | null;
  reminders: ReminderSpec[];
}

/** The rules that span fields or need the database: 422 naming each problem. */
async function check(tx: Pick<TenantTx, 'resource' | 'channel'>, s: Merged): Promise<void> {
  const problems: FieldError[] = [];
  const found = await tx.resource.findMany({ where: { id: { in: s.resourceIds } }, select: { id: true } });
  const known = new Set(found.map((r) => r.id));
  s.resourceIds.forEach((id, i) => {
    if (!known.has(id)) problems.push({ path: `resource_ids[${i}]`, message: 'No such resource' });
  });
  if (new Set(s.resourceIds).size !== s.resourceIds.length)
    problems.push({ path: 'resource_ids', message: 'Lists a resource twice' });
  if (s.payment !== 'none' && s.priceAmount === null)
    problems.push({ path: 'price', message: `Payment ${s.payment} needs a price` });
  if (s.payment === 'deposit') {
    if (s.depositAmount === null)
      problems.push({ path: 'deposit_amount', message: 'Required with payment deposit' });
    else if (s.priceAmount !== null && s.depositAmount > s.priceAmount)
      problems.push({ path: 'deposit_amount', message: 'At most the price' });
  } else if (s.depositAmount !== null) {
    problems.push({ path: 'deposit_amount', message: 'Only with payment deposit' });
  }
  const channelIds = [...new Set(s.reminders.map((r) => r.channel_id))];
  const channels = await tx.channel.findMany({
    where: { id: { in: channelIds }, type: 'whatsapp' },
    select: { id: true },
  });
  const whatsapp = new Set(channels.map((c) => c.id));
  s.reminders.forEach((r, i) => {
    if (!whatsapp.has(r.channel_id))
      problems.push({ path: `reminders[${i}].channel_id`, message: 'No such WhatsApp channel' });
  });
  if (problems.length > 0) throw Errors.validation(problems);
}

export async function createService(ctx: OperationContext, input: CreateServiceInput) {
  const { db, tenantId } = ctx;
  const merged: Merged = {
    resourceIds: input.resource_ids,
    priceAmount: input.price?.amount ?? null,
    priceCurrency: input.price?.currency ?? null,
    payment: input.payment,
    depositAmount: input.deposit_amount ?? null,
    reminders: input.reminders,
  };
  await check(db, merged);
  const row = await db.service.create({
    data: {
      id: newId('service'),
      tenantId,
      name: input.name,
      durationMinutes: input.duration_minutes,
      resourceIds: input.resource_ids,
      bufferBeforeMinutes: input.buffer_before_minutes,
      bufferAfterMinutes: input.buffer_after_minutes,
      minNoticeMinutes: input.min_notice_minutes,
      bookingWindowDays: input.booking_window_days,
      slotIntervalMinutes: input.slot_interval_minutes ?? null,
      priceAmount: merged.priceAmount,
      priceCurrency: merged.priceCurrency,
      payment: input.payment,
      depositAmount: merged.depositAmount,
      reminders: input.reminders as Prisma.InputJsonValue,
      isActive: input.is_active,
    },
  });
  return serializeService(row);
}

export function listServices(ctx: OperationContext, query: PageInput) {
  return paginate(
    query,
    ({ after, take }) => ctx.db.service.findMany({ where: { ...after }, orderBy: { id: 'desc' }, take }),
    serializeService,
  );
}

export async function getService(ctx: OperationContext, input: { id: string }) {
  const row = await ctx.db.service.findUnique({ where: { id: input.id } });
  if (!row) throw Errors.notFound('Service');
  return serializeService(row);
}

export async function updateService(
  ctx: OperationContext,
  input: { id: string; changes: UpdateServiceInput },
) {
  const { changes } = input;
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const current = await db.service.findUnique({ where: { id: input.id } });
    if (!current) throw Errors.notFound('Service');
    const merged: Merged = {
      resourceIds: changes.resource_ids ?? current.resourceIds,
      priceAmount: changes.price === undefined ? current.priceAmount : (changes.price?.amount ?? null),
      priceCurrency: changes.price === undefined ? current.priceCurrency : (changes.price?.currency ?? null),
      payment: changes.payment ?? current.payment,
      depositAmount:
        changes.deposit_amount !== undefined
          ? changes.deposit_amount
          : (changes.payment ?? current.payment) === 'deposit'
            ? current.depositAmount
            : null,
      reminders: changes.reminders ?? remindersOf(current),
    };
    await check(db, merged);
    const row = await db.service.update({
      where: { id: input.id },
      data: {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.duration_minutes !== undefined ? { durationMinutes: changes.duration_minutes } : {}),
        ...(changes.buffer_before_minutes !== undefined
          ? { bufferBeforeMinutes: changes.buffer_before_minutes }
          : {}),
        ...(changes.buffer_after_minutes !== undefined
          ? { bufferAfterMinutes: changes.buffer_after_minutes }
          : {}),
        ...(changes.min_notice_minutes !== undefined ? { minNoticeMinutes: changes.min_notice_minutes } : {}),
        ...(changes.booking_window_days !== undefined
          ? { bookingWindowDays: changes.booking_window_days }
          : {}),
        ...(changes.slot_interval_minutes !== undefined
          ? { slotIntervalMinutes: changes.slot_interval_minutes }
          : {}),
        ...(changes.is_active !== undefined ? { isActive: changes.is_active } : {}),
        resourceIds: merged.resourceIds,
        priceAmount: merged.priceAmount,
        priceCurrency: merged.priceCurrency,
        payment: merged.payment,
        depositAmount: merged.depositAmount,
        reminders: merged.reminders as Prisma.InputJsonValue,
      },
    });
    return serializeService(row);
  });
}

/** Deletes a service; its bookings keep their times and resource (service_id stays as a reference). */
export async function deleteService(ctx: OperationContext, input: { id: string }) {
  const { count } = await ctx.db.service.deleteMany({ where: { id: input.id } });
  if (count === 0) throw Errors.notFound('Service');
}

export type { Service };
