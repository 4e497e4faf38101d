import { eventTypeCondition } from '@/server/client-safe/event-catalog';
import type { Prisma } from '@/server/db/generated/client';
import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import { findEndpointOr404 } from '@/server/webhooks/endpoints/get-endpoint';
import type { DeliveryFilters } from '@/server/webhooks/schemas';
import { serializeDelivery } from '@/server/webhooks/serialize';

export interface ListDeliveriesInput extends DeliveryFilters {
  /** Omit for deliveries across all endpoints (the dashboard's "failed deliveries" view). */
  endpointId?: string;
  /** GET /deliveries?endpoint_id=: a filter, so an unknown endpoint matches nothing (no 404). */
  endpoint_id?: string;
  /** GET /deliveries?event_id=: only deliveries of this event (the dashboard's event log). */
  event_id?: string;
  limit: number;
  cursor?: string;
}

const RESPONSE_CLASS: Record<
  NonNullable<DeliveryFilters['response_status']>,
  Prisma.IntNullableFilter | null
> = {
  '2xx': { gte: 200, lte: 299 },
  '3xx': { gte: 300, lte: 399 },
  '4xx': { gte: 400, lte: 499 },
  '5xx': { gte: 500, lte: 599 },
  none: null,
};

/**
 * The conditions of the delivery filters (docs/operations.md "Webhook operations"). Each reads a column of the deliveries table itself (the
 * event's type and object id and the last attempt's status are copied there when written), so a
 * filtered page is an index scan of one table.
 */
function deliveryWhere(input: ListDeliveriesInput): Prisma.DeliveryWhereInput {
  const createdAt = {
    ...(input.created_after ? { gte: new Date(input.created_after) } : {}),
    ...(input.created_before ? { lt: new Date(input.created_before) } : {}),
  };
  return {
    ...(input.endpointId !== undefined ? { endpointId: input.endpointId } : {}),
    ...(input.endpoint_id !== undefined && input.endpointId === undefined
      ? { endpointId: input.endpoint_id }
      : {}),
    ...(input.event_id !== undefined ? { eventId: input.event_id } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(input.event_type ? { eventType: eventTypeCondition(input.event_type) } : {}),
    ...(input.object_id !== undefined ? { objectId: input.object_id } : {}),
    ...(input.response_status ? { lastResponseStatus: RESPONSE_CLASS[input.response_status] } : {}),
    ...(input.created_after || input.created_before ? { createdAt } : {}),
  };
}

export async function listDeliveries(ctx: OperationContext, input: ListDeliveriesInput) {
  const { db } = ctx;
  if (input.endpointId !== undefined) await findEndpointOr404(db, input.endpointId);
  return paginate(
    input,
    ({ after, take }) =>
      db.delivery.findMany({
        where: { ...after, ...deliveryWhere(input) },
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
