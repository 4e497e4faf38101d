import type { z } from 'zod';
import type { PaymentListQuery } from '@/server/api/schemas/payments';
import type { TenantDb } from '@/server/db/tenant-scope';
import { paginate } from '@/server/http/pagination';
import { serializePayment } from './serialize';

export function listPayments(db: TenantDb, query: z.output<typeof PaymentListQuery>) {
  return paginate(
    query,
    ({ after, take }) =>
      db.payment.findMany({
        where: {
          ...after,
          ...(query.status ? { status: query.status } : {}),
          ...(query.booking_id ? { bookingId: query.booking_id } : {}),
        },
        orderBy: { id: 'desc' },
        take,
      }),
    serializePayment,
  );
}
