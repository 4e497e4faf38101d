// A public service: what its booking page and `/public/services/{id}` show, found by its id alone
// (a visitor names no tenant; the service's own tenant is the one every later step acts in).

import type { z } from 'zod';
import { db } from '@/server/db/client';
import type { Service } from '@/server/db/generated/client';
import type { OperationContext } from '@/server/domain/context';
import { serializeService } from '@/server/domain/services/serialize';
import type { PublicService } from './schemas';

export interface PublicServiceSubject {
  tenantId: string;
  service: Service;
}

/**
 * The service with this id when it is public and active; null otherwise (an unknown id, another
 * kind of id, a private or paused service: all answer 404 alike). A lookup across tenants by id.
 */
export async function findPublicService(serviceId: string): Promise<PublicServiceSubject | null> {
  if (!/^svc_[0-9A-Za-z]{1,60}$/.test(serviceId)) return null;
  const service = await db().service.findUnique({ where: { id: serviceId } });
  if (!service?.public || !service.isActive) return null;
  return { tenantId: service.tenantId, service };
}

/** The zone the business works in for a service: its first resource's (UTC when it has none left). */
export async function businessTimeZone(ctx: OperationContext, resourceIds: string[]): Promise<string> {
  if (resourceIds.length === 0) return 'UTC';
  const resources = await ctx.db.resource.findMany({
    where: { id: { in: resourceIds } },
    select: { id: true, timeZone: true },
  });
  for (const id of resourceIds) {
    const found = resources.find((r) => r.id === id);
    if (found) return found.timeZone;
  }
  return 'UTC';
}

export async function presentPublicService(
  ctx: OperationContext,
  service: Service,
): Promise<z.input<typeof PublicService>> {
  const full = serializeService(service);
  return {
    id: full.id,
    name: full.name,
    duration_minutes: full.duration_minutes,
    price: full.price,
    payment: full.payment,
    deposit_amount: full.deposit_amount,
    time_zone: await businessTimeZone(ctx, service.resourceIds),
    requires_confirmation: full.requires_confirmation,
    cancel_notice_minutes: full.cancel_notice_minutes,
    booking_window_days: full.booking_window_days,
  };
}
