import type { z } from 'zod';
import type { BookingListQuery } from '@/server/api/schemas/bookings';
import type { TenantDb } from '@/server/db/tenant-scope';
import { paginate } from '@/server/http/pagination';
import { serializeBooking } from './serialize';

export function listBookings(db: TenantDb, query: z.output<typeof BookingListQuery>) {
  const startAt = {
    ...(query.from ? { gte: new Date(query.from) } : {}),
    ...(query.to ? { lt: new Date(query.to) } : {}),
  };
  return paginate(
    query,
    ({ after, take }) =>
      db.booking.findMany({
        where: {
          ...after,
          ...(query.status ? { status: query.status } : {}),
          ...(query.customer_email
            ? { customerEmail: { equals: query.customer_email, mode: 'insensitive' as const } }
            : {}),
          ...(query.from || query.to ? { startAt } : {}),
        },
        orderBy: { id: 'desc' },
        take,
      }),
    serializeBooking,
  );
}
