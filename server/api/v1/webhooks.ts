import { listOf } from '@/server/api/schemas/common';
import { json, noContent, tenantRoute } from '@/server/http/route';
import { ListQuery } from '@/server/lib/schemas';
import {
  createEndpoint,
  deleteEndpoint,
  endpointDeliveryStats,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  recoverDeliveries,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
  verifyReceiver,
} from '@/server/webhooks';
import {
  CreateWebhookInput,
  Delivery,
  DeliveryListQuery,
  DeliveryStats,
  ReceiverCheck,
  RecoverDeliveriesInput,
  RecoverResult,
  StatsQuery,
  TestEventResult,
  UpdateWebhookInput,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookSecret,
} from '@/server/webhooks/schemas';

const tag = 'Webhooks';

export const webhookRoutes = [
  tenantRoute({
    method: 'POST',
    path: '/webhooks',
    operationId: 'createWebhookEndpoint',
    secretResponse: true,
    tag,
    permission: 'webhooks.write',
    summary: 'Register a webhook endpoint (the signing secret is shown once)',
    description:
      'The url must be https and resolve only to public addresses, else 422 url_not_allowed. events lists ' +
      '*, a family (conversation.*, booking.*, payment.*, webhook.*) or catalog types. rate_limit_per_second ' +
      '(null: unlimited, or 1..1000) caps the attempts the endpoint receives in any second; the excess waits ' +
      'for a free slot and never fails for it. The service disables an endpoint after ' +
      'WEBHOOK_DISABLE_AFTER_FAILURES consecutive failed attempts (default 50) whose first is at least ' +
      'WEBHOOK_DISABLE_AFTER old (default 24h): is_active false, disabled_reason failing, its pending ' +
      'deliveries failed, and a webhook.endpoint.disabled event for the other endpoints.',
    body: CreateWebhookInput,
    responses: { 201: { description: 'Created, with webhook_secret', schema: WebhookEndpointWithSecret } },
    handler: async ({ ctx, body }) => json(201, await createEndpoint(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/webhooks',
    operationId: 'listWebhookEndpoints',
    tag,
    permission: 'webhooks.read',
    summary: 'List webhook endpoints with their recent success rate',
    query: ListQuery,
    responses: {
      200: { description: 'One page, newest first', schema: listOf(WebhookEndpoint, 'WebhookEndpointList') },
    },
    handler: async ({ ctx, query }) => json(200, await listEndpoints(ctx, query)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/webhooks/{id}',
    operationId: 'getWebhookEndpoint',
    tag,
    permission: 'webhooks.read',
    summary: 'Read a webhook endpoint',
    responses: { 200: { description: 'The endpoint', schema: WebhookEndpoint } },
    errors: [404],
    handler: async ({ ctx, params }) => json(200, await getEndpoint(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'PATCH',
    path: '/webhooks/{id}',
    operationId: 'updateWebhookEndpoint',
    tag,
    permission: 'webhooks.write',
    summary: 'Change url, events, description, is_active or rate_limit_per_second',
    description:
      'Disabling an endpoint stops every attempt not yet started, scheduled retries included (they end as ' +
      'failed). is_active: true re-enables it, also after the service disabled it: disabled_reason and ' +
      'disabled_at become null and the failure streak starts from zero; deliveries that failed meanwhile stay ' +
      'failed (POST /webhooks/{id}/recover requeues them). A change of rate_limit_per_second applies to the ' +
      'next attempt.',
    body: UpdateWebhookInput,
    responses: { 200: { description: 'The updated endpoint', schema: WebhookEndpoint } },
    errors: [404],
    handler: async ({ ctx, params, body }) =>
      json(200, await updateEndpoint(ctx, { ...body, id: params.id })),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/webhooks/{id}',
    operationId: 'deleteWebhookEndpoint',
    tag,
    permission: 'webhooks.write',
    summary: 'Delete a webhook endpoint and its delivery log',
    responses: { 204: { description: 'Deleted' } },
    errors: [404],
    handler: async ({ ctx, params }) => {
      await deleteEndpoint(ctx, { id: params.id });
      return noContent();
    },
  }),
  tenantRoute({
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    secretResponse: true,
    tag,
    permission: 'webhooks.write',
    summary: 'Replace the signing secret; both secrets sign for the next 24 h',
    responses: { 200: { description: 'The new secret (shown once)', schema: WebhookSecret } },
    errors: [404],
    handler: async ({ ctx, params }) => json(200, await rotateSecret(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/webhooks/{id}/test',
    operationId: 'sendWebhookTestEvent',
    tag,
    permission: 'webhooks.write',
    summary: 'Send a webhook.test event to this endpoint only',
    description:
      'Answers 202 at once; the delivery runs like any other (signed, retried). 409 endpoint_inactive ' +
      'when disabled.',
    responses: { 202: { description: 'Queued', schema: TestEventResult } },
    errors: [404, 409],
    handler: async ({ ctx, params }) => json(202, await sendTestEvent(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/webhooks/{id}/verify-receiver',
    operationId: 'verifyWebhookReceiver',
    tag,
    permission: 'webhooks.write',
    summary: 'Check that the receiver verifies signatures and timestamps',
    description:
      'Sends four webhook.test requests to the endpoint at once, each with its own webhook-id: valid (signed ' +
      'with the current secrets), bad_signature (signed with another secret), stale_timestamp (correctly ' +
      'signed, timestamp 10 minutes old) and tampered_body (signed, then the body changed). A correct ' +
      'receiver answers 2xx to valid only; a reject counts only when the receiver answers a non-2xx ' +
      'status (no answer is no verdict). These requests are not deliveries: nothing is recorded, and they ' +
      'are sent whether or not the endpoint is active, with the same SSRF rules, timeout and redirect ' +
      'refusal as deliveries. Answers 200 even when the check fails.',
    responses: { 200: { description: 'The report', schema: ReceiverCheck } },
    errors: [404],
    handler: async ({ ctx, params }) => json(200, await verifyReceiver(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'GET',
    path: '/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    tag,
    permission: 'webhooks.read',
    summary: "The endpoint's deliveries, filtered (status, event type, time, object, response status)",
    description:
      'Every filter narrows the list (they combine with AND); a malformed value answers 422 naming it.',
    query: DeliveryListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Delivery, 'DeliveryList') } },
    errors: [404],
    handler: async ({ ctx, params, query }) =>
      json(200, await listDeliveries(ctx, { ...query, endpointId: params.id })),
  }),
  tenantRoute({
    method: 'GET',
    path: '/webhooks/{id}/stats',
    operationId: 'getWebhookStats',
    tag,
    permission: 'webhooks.read',
    summary: "The endpoint's attempts per hour or day: succeeded, failed and latency",
    description:
      'Counts attempts (not deliveries) started in [since, until), in buckets that start on UTC hours or ' +
      'days; every bucket of the window is listed, oldest first, empty ones with zeros and null latency. ' +
      'Default: the last 24 hours by hour (the current hour last). 422 when until is not after since, or ' +
      'when the window holds more than 744 buckets. totals.pending counts the deliveries waiting for an ' +
      'attempt now.',
    query: StatsQuery,
    responses: { 200: { description: 'The buckets and totals', schema: DeliveryStats } },
    errors: [404],
    handler: async ({ ctx, params, query }) =>
      json(200, await endpointDeliveryStats(ctx, { ...query, id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/webhooks/{id}/recover',
    operationId: 'recoverWebhookDeliveries',
    tag,
    permission: 'webhooks.write',
    summary: 'Requeue the failed deliveries of a time range',
    description:
      'Every failed delivery of this endpoint created in [since, until) (until defaults to the time of the ' +
      'request) goes back to pending once: the same delivery, with the same id, event and webhook-id, gets a ' +
      'new round of attempts with the full retry schedule (its X-Service-Delivery-Attempt counts from 1 again; ' +
      'attempt_number in the delivery log continues after the earlier attempts). Deliveries are requeued in ' +
      'batches of 1,000, each its own short transaction, and the answer comes once all are queued; they are ' +
      'then sent like new ones. dry_run: true answers 200 with the count and changes nothing; otherwise 202 ' +
      'with the number requeued. A disabled endpoint answers 409 endpoint_disabled (re-enable it first).',
    body: RecoverDeliveriesInput,
    responses: {
      200: { description: 'Dry run: how many would be requeued', schema: RecoverResult },
      202: { description: 'Requeued; they are being delivered', schema: RecoverResult },
    },
    errors: [404, 409],
    handler: async ({ ctx, params, body }) => {
      const { dryRun, count } = await recoverDeliveries(ctx, { ...body, id: params.id });
      return dryRun ? json(200, { count }) : json(202, { count });
    },
  }),
];
