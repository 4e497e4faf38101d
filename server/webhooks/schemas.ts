import { z } from 'zod';
import { isSubscribable } from '@/server/client-safe/event-catalog';
import { LIMITS } from '@/server/client-safe/limits';
import { DELIVERY_STATUSES, RESPONSE_CLASSES } from '@/server/client-safe/statuses';
import { EventEnvelope, EventTypeFilter } from '@/server/events/schemas';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

const Subscription = z
  .string()
  .refine(isSubscribable, {
    message: 'Must be *, conversation.*, booking.*, payment.* or an event type from GET /event-types',
  })
  .meta({ example: 'booking.*' });

const Url = z
  .string()
  .min(1)
  .max(2048)
  .meta({
    format: 'uri',
    description:
      'https URL resolving only to public addresses (422 url_not_allowed otherwise). The operator setting ' +
      'WEBHOOK_ALLOW_PRIVATE_URLS=true also allows http and local targets.',
  });
const Events = z.array(Subscription).min(1, 'At least one subscription is required').max(50);
const Description = z.string().max(LIMITS.endpointDescription).nullable();

const RateLimit = z
  .number()
  .int()
  .min(1)
  .max(1000)
  .nullable()
  .meta({
    description:
      'At most this many attempts per second reach the endpoint (null: unlimited). Attempts over the limit ' +
      'wait for a free slot; they never fail because of it.',
    example: 10,
  });

export const CreateWebhookInput = z
  .object({
    url: Url,
    events: Events,
    description: Description.optional(),
    is_active: z.boolean().default(true),
    rate_limit_per_second: RateLimit.optional(),
  })
  .meta({
    description:
      'A tenant has at most MAX_WEBHOOK_ENDPOINTS_PER_TENANT endpoints (default 50), enabled or not: one ' +
      'more answers 409 endpoint_limit_reached. Deliveries are fair whatever the endpoints: at most ' +
      'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT attempts per endpoint (default 5) and WEBHOOK_MAX_IN_FLIGHT_PER_TENANT ' +
      'per tenant (default 8) are in flight at once, and tenants take turns.',
  });

export const UpdateWebhookInput = z.object({
  url: Url.optional(),
  events: Events.optional(),
  description: Description.optional(),
  is_active: z
    .boolean()
    .optional()
    .meta({
      description:
        'true re-enables an endpoint (also one the service disabled): it clears disabled_reason and the ' +
        'failure streak. Deliveries that failed meanwhile stay failed: POST /webhooks/{id}/recover requeues them.',
    }),
  rate_limit_per_second: RateLimit.optional(),
});

export const WebhookEndpoint = z.object({
  id: z.string().meta({ example: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  is_active: z.boolean(),
  disabled_reason: z
    .enum(['failing'])
    .nullable()
    .meta({
      description:
        'failing: the service disabled the endpoint after WEBHOOK_DISABLE_AFTER_FAILURES consecutive failed ' +
        'attempts, the first at least WEBHOOK_DISABLE_AFTER old. null: active, or disabled by a person.',
    }),
  disabled_at: Timestamp.nullable().meta({
    description: 'When the service disabled it (with disabled_reason)',
  }),
  rate_limit_per_second: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Attempts per second; null: unlimited' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  recent_attempts: z.number().int().meta({ description: 'Delivery attempts in the last 24 h' }),
  recent_success_rate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .meta({ description: 'Share of those attempts that succeeded (null without attempts)' }),
});

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  webhook_secret: z.string().meta({ description: 'whsec_… signing secret; shown only here and at rotation' }),
});

export const WebhookSecret = z.object({ webhook_secret: z.string(), previous_secret_expires_at: Timestamp });

export const DeliveryStatus = z.enum(DELIVERY_STATUSES);

export const DeliveryAttempt = z.object({
  attempt_number: z.number().int(),
  started_at: Timestamp,
  succeeded: z.boolean(),
  response_status: z.number().int().nullable(),
  latency_ms: z.number().int(),
  response_excerpt: z.string().nullable().meta({ description: 'First 2 KiB of the response body' }),
  error: z.string().nullable(),
});

export const Delivery = z.object({
  id: z.string().meta({ example: 'dlv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  event_id: z.string(),
  event_type: z.string(),
  endpoint_id: z.string(),
  status: DeliveryStatus,
  attempt_count: z.number().int(),
  next_attempt_at: Timestamp.nullable(),
  last_attempt_at: Timestamp.nullable(),
  resend_of_id: z
    .string()
    .nullable()
    .meta({ description: 'Set on a delivery created by POST /deliveries/{id}/resend' }),
  last_attempt: DeliveryAttempt.nullable().meta({
    description: 'The most recent attempt (all of them: GET /deliveries/{id})',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const DeliveryDetail = Delivery.extend({
  attempts: z.array(DeliveryAttempt),
  event: EventEnvelope,
});

const createdBound = (description: string) =>
  z.iso.datetime({ offset: true }).optional().meta({ description, example: '2026-11-23T00:00:00Z' });

/** The filters of both delivery lists (docs/operations.md, "Webhook operations"); every one is backed by an index. */
export const deliveryFilters = {
  status: DeliveryStatus.optional(),
  event_type: EventTypeFilter.optional().meta({
    description: 'An event type, or a family of them (`booking.*`, `conversation.message.*`)',
  }),
  created_after: createdBound('Only deliveries created at or after this time'),
  created_before: createdBound('Only deliveries created before this time'),
  object_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Only deliveries of events about this resource (the event's data.object.id)" }),
  response_status: z
    .enum(RESPONSE_CLASSES)
    .optional()
    .meta({
      description:
        'The class of the HTTP status of the last attempt; `none`: no answer (no attempt yet, or it timed ' +
        'out or could not connect)',
    }),
};

export const createdOrder = (q: { created_after?: string; created_before?: string }) =>
  !q.created_after || !q.created_before || Date.parse(q.created_before) > Date.parse(q.created_after);
export const createdOrderIssue = { message: 'Must be after created_after', path: ['created_before'] };

export const DeliveryListQuery = ListQuery.extend(deliveryFilters).refine(createdOrder, createdOrderIssue);

export const AllDeliveriesQuery = ListQuery.extend({
  ...deliveryFilters,
  endpoint_id: z
    .string()
    .regex(/^whe_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a webhook endpoint id (whe_…)')
    .optional()
    .meta({ description: 'Only deliveries to this endpoint', example: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  event_id: z
    .string()
    .regex(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be an event id (evt_…)')
    .optional()
    .meta({ description: 'Only deliveries of this event', example: 'evt_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
}).refine(createdOrder, createdOrderIssue);

export type DeliveryFilters = {
  [K in keyof typeof deliveryFilters]?: z.output<(typeof deliveryFilters)[K]>;
};

export const TestEventResult = z.object({ event: EventEnvelope, delivery: Delivery });

export type CreateWebhookInput = z.output<typeof CreateWebhookInput>;
export type UpdateWebhookInput = z.output<typeof UpdateWebhookInput>;

export const ReceiverCheckResult = z.object({
  case: z.enum(['valid', 'bad_signature', 'stale_timestamp', 'tampered_body']),
  expected: z.enum(['accept', 'reject']),
  status: z.number().int().nullable().meta({ description: 'The status the receiver answered (null: none)' }),
  ok: z.boolean().meta({ description: 'accept: answered 2xx; reject: answered a status outside 2xx' }),
  error: z
    .string()
    .nullable()
    .meta({ description: 'Why the request was not accepted (connection refused, timeout, status …)' }),
});

export const ReceiverCheck = z.object({
  passed: z.boolean().meta({ description: 'Every case ok' }),
  results: z.array(ReceiverCheckResult),
});

export const STATS_MAX_BUCKETS = 744;

export const StatsQuery = z.object({
  since: z.iso.datetime({ offset: true }).optional().meta({
    description:
      'Start of the window (default: the start of the hour 23 hours ago by hour, of the UTC day 29 days ago by day)',
  }),
  until: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'End of the window, exclusive (default: now)' }),
  bucket: z
    .enum(['hour', 'day'])
    .default('hour')
    .meta({ description: `Bucket size; buckets start on UTC hours or days; at most ${STATS_MAX_BUCKETS}` }),
});

export const StatsBucket = z.object({
  start: Timestamp.meta({ description: 'Start of the bucket (a UTC hour or day)' }),
  succeeded: z.number().int().meta({ description: 'Attempts answered with a 2xx' }),
  failed: z.number().int().meta({ description: 'Attempts that failed (non-2xx, timeout, no connection)' }),
  latency_p50_ms: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Median attempt latency (null: no attempt)' }),
  latency_p95_ms: z.number().int().nullable().meta({ description: '95th percentile attempt latency' }),
});

export const DeliveryStats = z.object({
  buckets: z
    .array(StatsBucket)
    .meta({ description: 'Every bucket of the window, oldest first, empty ones too' }),
  totals: z.object({
    succeeded: z.number().int().meta({ description: 'Succeeded attempts in the window' }),
    failed: z.number().int().meta({ description: 'Failed attempts in the window' }),
    pending: z
      .number()
      .int()
      .meta({ description: 'Deliveries waiting for an attempt now (first or retry), whatever the window' }),
  }),
});

export const RecoverDeliveriesInput = z
  .object({
    since: z.iso
      .datetime({ offset: true })
      .meta({ description: 'Failed deliveries created at or after this time are requeued' }),
    until: z.iso.datetime({ offset: true }).optional().meta({
      description: '…and before this time (default: the time of the request)',
    }),
    dry_run: z.boolean().default(false).meta({ description: 'true: only count them (200); nothing changes' }),
  })
  .refine((v) => v.until === undefined || Date.parse(v.until) > Date.parse(v.since), {
    message: 'until must be later than since',
    path: ['until'],
  });
export type RecoverDeliveriesInput = z.output<typeof RecoverDeliveriesInput>;

export const RecoverResult = z.object({
  count: z
    .number()
    .int()
    .meta({ description: 'Failed deliveries in the range: requeued (202), or that would be (dry run, 200)' }),
});
