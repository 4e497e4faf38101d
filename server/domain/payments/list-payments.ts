import type { z } from 'zod';
import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import type { PaymentListQuery } from '@/server/domain/payments/schemas';
import { serializePayment } from './serialize';

export function listPayments(ctx: OperationContext, query: z.output<typeof PaymentListQuery>) {
  const { db } = ctx;
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
