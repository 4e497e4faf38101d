import { listOf } from '@/server/api/schemas/common';
import { json, tenantRoute } from '@/server/http/route';
import { getDelivery, listDeliveries, resendDelivery } from '@/server/webhooks';
import { AllDeliveriesQuery, Delivery, DeliveryDetail } from '@/server/webhooks/schemas';

const tag = 'Webhooks';

export const deliveryRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/deliveries',
    operationId: 'listDeliveries',
    tag,
    permission: 'webhooks.read',
    summary: 'Deliveries across all endpoints, filtered (e.g. ?status=failed&event_type=booking.*)',
    description:
      'Every filter narrows the list (they combine with AND); a malformed value answers 422 naming it. ' +
      'An endpoint_id of another tenant simply matches nothing.',
    query: AllDeliveriesQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Delivery, 'DeliveryList') } },
    handler: async ({ ctx, query }) => json(200, await listDeliveries(ctx, query)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/deliveries/{id}',
    operationId: 'getDelivery',
    tag,
    permission: 'webhooks.read',
    summary: 'A delivery with every attempt and the event payload',
    responses: { 200: { description: 'The delivery', schema: DeliveryDetail } },
    errors: [404],
    handler: async ({ ctx, params }) => json(200, await getDelivery(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/deliveries/{id}/resend',
    operationId: 'resendDelivery',
    tag,
    permission: 'webhooks.write',
    summary: 'Deliver the same event to the same endpoint again, now',
    description:
      'Creates a new delivery (resend_of_id = the original) with a fresh attempt schedule; receivers get ' +
      'the same webhook-id. 409 endpoint_inactive when the endpoint is disabled.',
    responses: { 202: { description: 'The new delivery, queued', schema: Delivery } },
    errors: [404, 409],
    handler: async ({ ctx, params }) => json(202, await resendDelivery(ctx, { id: params.id })),
  }),
];
