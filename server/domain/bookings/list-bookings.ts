import type { z } from 'zod';
import { paginate } from '@/server/db/pagination';
import type { BookingListQuery } from '@/server/domain/bookings/schemas';
import type { OperationContext } from '@/server/domain/context';
import { paymentsOfBookings, serializeBooking } from './serialize';

export function listBookings(ctx: OperationContext, query: z.output<typeof BookingListQuery>) {
  const { db } = ctx;
  const startAt = {
    ...(query.from ? { gte: new Date(query.from) } : {}),
    ...(query.to ? { lt: new Date(query.to) } : {}),
  };
  return paginate(
    query,
    async ({ after, take }) => {
      const rows = await db.booking.findMany({
        where: {
          ...after,
          ...(query.status ? { status: query.status } : {}),
          ...(query.customer_email
            ? { customerEmail: { equals: query.customer_email, mode: 'insensitive' as const } }
            : {}),
          ...(query.from || query.to ? { startAt } : {}),
          ...(query.customer_phone ? { customerPhone: `+${query.customer_phone.replace(/^\+/, '')}` } : {}),
          ...(query.service_id ? { serviceId: query.service_id } : {}),
          ...(query.resource_id ? { resourceId: query.resource_id } : {}),
        },
        orderBy: { id: 'desc' },
        take,
      });
      const payments = await paymentsOfBookings(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((row) => ({ row, id: row.id, payment: payments.get(row.id) ?? null }));
    },
    ({ row, payment }) => serializeBooking(row, payment),
  );
}
