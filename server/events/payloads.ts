// Typed events (docs/decisions.md "Integrator tools"): for every catalog type, the schema of its `data.object` (the resource
// exactly as the REST API returns it, same zod schema) and of `data.previous` where the type has
// one, plus an example. The outbox validates each event against these before recording it
// (server/webhooks/outbox.ts); GET /event-types and the OpenAPI `webhooks` map are generated from them, so what
// receivers are promised and what they get cannot drift apart.
import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '@/server/client-safe/event-catalog';
import { Booking } from '@/server/domain/bookings/schemas';
import { Conversation, Message } from '@/server/domain/conversations/schemas';
import { Payment } from '@/server/domain/payments/schemas';
import { Timestamp } from '@/server/lib/schemas';
import { WebhookEndpoint } from '@/server/webhooks/schemas';

/** `webhook.test`'s object: not a resource, a marker naming the endpoint it was sent to. */
export const WebhookTestObject = z.object({
  endpoint_id: z.string().meta({ example: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  message: z.string(),
});

/** `webhook.delivery.exhausted`'s object: the delivery that failed its last scheduled attempt. */
export const DeliveryExhaustedObject = z.object({
  delivery_id: z.string().meta({ example: 'dlv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  endpoint_id: z.string().meta({ example: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  event_id: z.string().meta({ example: 'evt_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  event_type: z.string().meta({ example: 'booking.confirmed' }),
  attempts: z.number().int().meta({ description: 'Attempts the delivery has had in all' }),
  last_status: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'HTTP status of the last attempt (null: no answer, e.g. timeout or refused)' }),
});

/** `booking.rescheduled`'s `data.previous`: the times the change replaced. */
export const BookingRescheduledPrevious = z.object({
  start_at: Timestamp,
  end_at: Timestamp,
  resource_id: z
    .string()
    .nullable()
    .meta({ description: 'The resource it held (null for a free-form booking)' }),
});

interface PayloadSpec {
  object: z.ZodObject;
  previous?: z.ZodObject;
}

const booking = { object: Booking };
const payment = { object: Payment };
const conversation = { object: Conversation };
const message = { object: Message };

export const EVENT_PAYLOADS = {
  'conversation.created': conversation,
  'conversation.message.received': message,
  'conversation.message.sent': message,
  'conversation.message.delivered': message,
  'conversation.message.read': message,
  'conversation.message.failed': message,
  'conversation.handoff.requested': conversation,
  'conversation.assigned': conversation,
  'conversation.resolved': conversation,
  'conversation.window.expiring': conversation,
  'conversation.handoff.overdue': conversation,
  'booking.created': booking,
  'booking.confirmed': booking,
  'booking.rescheduled': { object: Booking, previous: BookingRescheduledPrevious },
  'booking.cancelled': booking,
  'booking.completed': booking,
  'booking.expired': booking,
  'booking.no_show': booking,
  'booking.reminder.sent': booking,
  'booking.attendance_confirmed': booking,
  'payment.created': payment,
  'payment.succeeded': payment,
  'payment.failed': payment,
  'payment.refunded': payment,
  'webhook.endpoint.disabled': { object: WebhookEndpoint },
  'webhook.delivery.exhausted': { object: DeliveryExhaustedObject },
  'webhook.test': { object: WebhookTestObject },
} as const satisfies Record<EventType, PayloadSpec>;

type Payloads = typeof EVENT_PAYLOADS;
/** What `recordEvent` takes as the object of an event of type K (the serializer's output). */
export type EventObject<K extends EventType> = z.input<Payloads[K]['object']>;
export type EventPrevious<K extends EventType> = Payloads[K] extends { previous: z.ZodType }
  ? z.input<Payloads[K]['previous']>
  : never;

export function payloadSpec(type: EventType): PayloadSpec {
  return EVENT_PAYLOADS[type];
}

const envelopes = new Map<EventType, ReturnType<typeof buildEnvelopeSchema>>();
/** The envelope (docs/architecture.md "Webhook delivery") of one type, with `data.object` (and `data.previous`) typed; one instance per type. */
export function envelopeSchema(type: EventType) {
  let schema = envelopes.get(type);
  if (!schema) {
    schema = buildEnvelopeSchema(type);
    envelopes.set(type, schema);
  }
  return schema;
}

function buildEnvelopeSchema(type: EventType) {
  const spec = payloadSpec(type);
  return z.object({
    id: z.string().meta({ description: 'evt_… id; also the webhook-id header (deduplicate by it)' }),
    type: z.literal(type),
    created_at: Timestamp,
    tenant_id: z.string().meta({ format: 'uuid' }),
    api_version: z.literal('v1'),
    data: z.object(
      spec.previous
        ? {
            object: spec.object,
            previous: spec.previous.meta({ description: 'The fields before the change' }),
          }
        : { object: spec.object },
    ),
  });
}

/** JSON Schema (draft 2020-12) of one type's envelope, self-contained (no $refs outside it). */
function envelopeJsonSchema(type: EventType): Record<string, unknown> {
  return z.toJSONSchema(envelopeSchema(type), { target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
}

// Examples: one fixed instant and fixed ids, so the document is stable between builds.
const AT = '2026-01-15T09:30:00.000Z';
const TENANT = '8f2c7a4e-1b3d-4c5e-9f6a-0b1c2d3e4f5a';
const exampleBooking = (status: z.output<typeof Booking>['status']) => ({
  id: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  status,
  customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+34600111222' },
  service: 'Haircut',
  start_at: '2026-01-20T10:00:00.000Z',
  end_at: '2026-01-20T10:45:00.000Z',
  notes: null,
  metadata: { source: 'website' },
  cancellation_reason: status === 'cancelled' ? 'Customer asked' : null,
  service_id: 'svc_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  resource_id: 'res_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  hold_expires_at: status === 'pending' || status === 'expired' ? '2026-01-15T10:00:00.000Z' : null,
  payment: {
    id: 'pay_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
    checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4',
  },
  conversation_id: null,
  attendance_confirmed_at: null,
  created_at: AT,
  updated_at: AT,
});
const examplePayment = (status: z.output<typeof Payment>['status']) => ({
  id: 'pay_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  booking_id: 'bkg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  amount: 4500,
  currency: 'EUR',
  status,
  provider: 'stripe' as const,
  provider_ref: 'cs_test_a1B2c3D4',
  checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4',
  refunded_amount: status === 'refunded' ? 4500 : 0,
  created_at: AT,
  updated_at: AT,
});
const exampleConversation = (
  patch: Partial<z.output<typeof Conversation>> = {},
): z.output<typeof Conversation> => ({
  id: 'cnv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  channel: 'whatsapp',
  channel_id: 'chn_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  contact: { name: 'Ada Lovelace', phone: '34600111222' },
  status: 'open',
  handled_by: 'ai',
  assignee_id: null,
  handoff_reason: null,
  handoff_summary: null,
  handoff_requested_at: null,
  handoff_overdue_at: null,
  last_message_at: AT,
  window_expires_at: '2026-01-16T09:30:00.000Z',
  created_at: AT,
  updated_at: AT,
  ...patch,
});
const exampleMessage = (
  status: z.output<typeof Message>['status'],
  direction: 'inbound' | 'outbound' = 'outbound',
) => ({
  id: 'msg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  conversation_id: 'cnv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  direction,
  type: 'text',
  text: direction === 'inbound' ? 'Hi, can I move my appointment?' : 'Of course! Which day suits you?',
  template: null,
  media: null,
  interactive: null,
  status,
  external_id: status === 'queued' ? null : 'wamid.HBgLMzQ2MDAxMTEyMjIVAgARGBI',
  failure_reason: status === 'failed' ? 'The channel refused the message' : null,
  created_at: AT,
  updated_at: AT,
});

const EXAMPLE_OBJECTS: { [K in EventType]: EventObject<K> } = {
  'conversation.created': exampleConversation(),
  'conversation.message.received': exampleMessage('received', 'inbound'),
  'conversation.message.sent': exampleMessage('sent'),
  'conversation.message.delivered': exampleMessage('delivered'),
  'conversation.message.read': exampleMessage('read'),
  'conversation.message.failed': exampleMessage('failed'),
  'conversation.handoff.requested': exampleConversation({
    status: 'pending_human',
    handoff_reason: 'Customer asked for a person',
    handoff_summary: 'Wants to move Tuesday’s appointment',
    handoff_requested_at: '2026-01-15T09:30:00.000Z',
  }),
  'conversation.assigned': exampleConversation({
    handled_by: 'human',
    assignee_id: 'usr_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
  }),
  'conversation.resolved': exampleConversation({ status: 'resolved', handled_by: 'human' }),
  'conversation.window.expiring': exampleConversation(),
  'conversation.handoff.overdue': exampleConversation({
    status: 'pending_human',
    handled_by: 'human',
    handoff_reason: 'Customer asked for a person',
    handoff_summary: 'Wants to move Tuesday’s appointment',
    handoff_requested_at: '2026-01-15T09:30:00.000Z',
    handoff_overdue_at: '2026-01-15T09:45:00.000Z',
  }),
  'booking.created': exampleBooking('pending'),
  'booking.confirmed': exampleBooking('confirmed'),
  'booking.rescheduled': exampleBooking('confirmed'),
  'booking.cancelled': exampleBooking('cancelled'),
  'booking.completed': exampleBooking('completed'),
  'booking.expired': exampleBooking('expired'),
  'booking.no_show': exampleBooking('no_show'),
  'booking.reminder.sent': exampleBooking('confirmed'),
  'booking.attendance_confirmed': exampleBooking('confirmed'),
  'payment.created': examplePayment('pending'),
  'payment.succeeded': examplePayment('succeeded'),
  'payment.failed': examplePayment('failed'),
  'payment.refunded': examplePayment('refunded'),
  'webhook.endpoint.disabled': {
    id: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
    url: 'https://example.com/webhooks',
    events: ['booking.*'],
    description: 'Booking sync',
    is_active: false,
    disabled_reason: 'failing',
    disabled_at: AT,
    rate_limit_per_second: null,
    created_at: '2026-01-01T08:00:00.000Z',
    updated_at: AT,
    recent_attempts: 412,
    recent_success_rate: 0,
  },
  'webhook.delivery.exhausted': {
    delivery_id: 'dlv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
    endpoint_id: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
    event_id: 'evt_01JD3XJ4R0Q8X5V7YJ3L1M6N9P',
    event_type: 'booking.confirmed',
    attempts: 6,
    last_status: 503,
  },
  'webhook.test': {
    endpoint_id: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
    message: 'This is a test event sent from Switchboard',
  },
};

/** A valid object for an event of `type` (examples in the docs; tests that need any valid payload). */
export function exampleObject<K extends EventType>(type: K): EventObject<K> {
  return structuredClone(EXAMPLE_OBJECTS[type]);
}

/** A complete example envelope of `type`, valid against `envelopeSchema(type)`. */
export function exampleEnvelope(type: EventType): {
  id: string;
  type: EventType;
  created_at: string;
  tenant_id: string;
  api_version: 'v1';
  data: { object: Record<string, unknown>; previous?: Record<string, unknown> };
} {
  return {
    id: 'evt_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
    type,
    created_at: AT,
    tenant_id: TENANT,
    api_version: 'v1' as const,
    data:
      type === 'booking.rescheduled'
        ? {
            object: exampleObject(type),
            previous: {
              start_at: '2026-01-19T16:00:00.000Z',
              end_at: '2026-01-19T16:45:00.000Z',
              resource_id: 'res_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q',
            },
          }
        : { object: exampleObject(type) },
  };
}

export class InvalidEventPayload extends Error {
  constructor(type: string, issues: z.core.$ZodIssue[]) {
    super(
      `Event ${type} not recorded: its payload does not match the ${type} schema: ` +
        issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    );
    this.name = 'InvalidEventPayload';
  }
}

/**
 * The event's object and previous as they will be recorded, or InvalidEventPayload. Keys the schema
 * does not declare are refused too, so the document's `additionalProperties: false` holds.
 */
export function validatePayload(
  type: EventType,
  object: unknown,
  previous: unknown,
): { object: Record<string, unknown>; previous?: Record<string, unknown> } {
  const spec = payloadSpec(type);
  const data = z
    .object(
      spec.previous
        ? { object: strictly(spec.object), previous: strictly(spec.previous) }
        : { object: strictly(spec.object) },
    )
    .strict();
  const parsed = data.safeParse(previous === undefined ? { object } : { object, previous });
  if (!parsed.success) throw new InvalidEventPayload(type, parsed.error.issues);
  return parsed.data as { object: Record<string, unknown>; previous?: Record<string, unknown> };
}

const strictCache = new WeakMap<z.ZodObject, z.ZodObject>();
/** The object schema with unknown keys refused at every level of nested objects. */
function strictly(schema: z.ZodObject): z.ZodObject {
  const cached = strictCache.get(schema);
  if (cached) return cached;
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [key, strictField(field as z.ZodType)]),
  );
  const strict = z.strictObject(shape);
  strictCache.set(schema, strict);
  return strict;
}

function strictField(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodObject) return strictly(field);
  if (field instanceof z.ZodOptional) return strictField(field.unwrap() as z.ZodType).optional();
  if (field instanceof z.ZodNullable) return strictField(field.unwrap() as z.ZodType).nullable();
  return field;
}

let catalog: {
  type: EventType;
  description: string;
  schema: Record<string, unknown>;
  example: ReturnType<typeof exampleEnvelope>;
}[];
/** GET /event-types: every type with the JSON Schema of its envelope and an example valid against it. */
export function describeEventTypes() {
  catalog ??= EVENT_TYPES.map((e) => ({
    type: e.type,
    description: e.description,
    schema: envelopeJsonSchema(e.type),
    example: exampleEnvelope(e.type),
  }));
  return catalog;
}
