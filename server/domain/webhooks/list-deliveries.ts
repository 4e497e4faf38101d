import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import { findEndpointOr404 } from './get-endpoint';
import { serializeDelivery } from './serialize';

export interface ListDeliveriesInput {
  /** Omit for deliveries across all endpoints (the dashboard's "failed deliveries" view). */
  endpointId?: string;
  status?: 'pending' | 'succeeded' | 'failed';
  limit: number;
  cursor?: string;
}

export async function listDeliveries(ctx: OperationContext, input: ListDeliveriesInput) {
  const { db } = ctx;
  if (input.endpointId !== undefined) await findEndpointOr404(db, input.endpointId);
  return paginate(
    input,
    ({ after, take }) =>
      db.delivery.findMany({
        where: {
          ...after,
          ...(input.endpointId !== undefined ? { endpointId: input.endpointId } : {}),
          ...(input.status ? { status: input.status } : {}),
        },
        include: {
          event: { select: { type: true } },
          attempts: { orderBy: { attemptNumber: 'desc' }, take: 1 },
        },
        orderBy: { id: 'desc' },
        take,
      }),
    serializeDelivery,
  );
}
