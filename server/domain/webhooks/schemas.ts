import { z } from 'zod';
import { isSubscribable } from '@/server/events/catalog';
import { EventEnvelope } from '@/server/events/schemas';
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
const Description = z.string().max(500).nullable();

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

export const CreateWebhookInput = z.object({
  url: Url,
  events: Events,
  description: Description.optional(),
  is_active: z.boolean().default(true),
  rate_limit_per_second: RateLimit.optional(),
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

export const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);

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

export const DeliveryListQuery = ListQuery.extend({ status: DeliveryStatus.optional() });

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
