// The event catalog, served at GET /event-types (see its OpenAPI description). Client-safe: the dashboard
// imports it as it is (the subscription picker, the event filters), so it imports nothing.
export const EVENT_TYPES = [
  {
    type: 'conversation.created',
    description: 'A conversation was started (inbound message from a new contact, or created by the API)',
  },
  { type: 'conversation.message.received', description: 'A new inbound message arrived' },
  {
    type: 'conversation.message.sent',
    description: 'An outbound message was accepted by the channel provider',
  },
  {
    type: 'conversation.message.delivered',
    description: 'The channel reported delivery of an outbound message (WhatsApp receipt)',
  },
  {
    type: 'conversation.message.read',
    description: 'The recipient read an outbound message (WhatsApp receipt)',
  },
  { type: 'conversation.message.failed', description: 'An outbound message could not be sent or delivered' },
  {
    type: 'conversation.handoff.requested',
    description: 'The AI assistant handed the conversation to a person',
  },
  { type: 'conversation.assigned', description: 'The conversation was assigned to a team member' },
  { type: 'conversation.resolved', description: 'The conversation was resolved' },
  {
    type: 'conversation.window.expiring',
    description:
      'WhatsApp’s customer service window closes within WHATSAPP_WINDOW_WARNING (default 1 h); once per window',
  },
  {
    type: 'conversation.handoff.overdue',
    description: 'The conversation has waited in the hand-off queue longer than HANDOFF_SLA (default 15 min)',
  },
  { type: 'booking.created', description: 'A booking was created' },
  { type: 'booking.confirmed', description: 'A booking was confirmed' },
  {
    type: 'booking.rescheduled',
    description: 'A booking’s start or end time changed (data.previous has the old times)',
  },
  { type: 'booking.cancelled', description: 'A booking was cancelled' },
  { type: 'booking.completed', description: 'A booking was completed' },
  {
    type: 'booking.expired',
    description:
      'A hold ran out: the pending booking was not confirmed by hold_expires_at, and its slot is free again',
  },
  { type: 'booking.no_show', description: 'The customer did not come to a confirmed booking' },
  {
    type: 'booking.reminder.sent',
    description: 'A reminder of the booking’s service reached WhatsApp (data.object is the booking)',
  },
  {
    type: 'booking.attendance_confirmed',
    description: 'The customer confirmed they will come, with a reminder’s quick reply on WhatsApp',
  },
  { type: 'payment.created', description: 'A payment was created' },
  { type: 'payment.succeeded', description: 'A payment succeeded' },
  { type: 'payment.failed', description: 'A payment failed' },
  {
    type: 'payment.refunded',
    description:
      'A refund of a payment, full or partial, ours or made in Stripe’s dashboard, once per refund: ' +
      'data.object.refunded_amount is the total refunded so far (status stays succeeded while it is partial)',
  },
  {
    type: 'webhook.endpoint.disabled',
    description:
      'The service disabled an endpoint after consecutive failed attempts (never sent to that endpoint)',
  },
  {
    type: 'webhook.delivery.exhausted',
    description: 'A delivery failed its last scheduled attempt (never sent to the endpoint it is about)',
  },
  { type: 'webhook.test', description: 'Sent only by the test action, to one endpoint' },
] as const;

export type EventType = (typeof EVENT_TYPES)[number]['type'];
export const EVENT_TYPE_NAMES: readonly string[] = EVENT_TYPES.map((e) => e.type);

/** Subscription values an endpoint may list: `*`, a family, or a catalog type (not webhook.test). */
export const SUBSCRIPTION_FAMILIES = ['*', 'conversation.*', 'booking.*', 'payment.*', 'webhook.*'] as const;

/** The service's own notices about webhooks (docs/operations.md "Webhook operations"): never sent to the endpoint they are about, never causing another. */
export function isWebhookNotice(type: string): boolean {
  return type.startsWith('webhook.');
}

export function isSubscribable(value: string): boolean {
  return (
    (SUBSCRIPTION_FAMILIES as readonly string[]).includes(value) ||
    (EVENT_TYPE_NAMES.includes(value) && value !== 'webhook.test')
  );
}

/** Whether an endpoint subscribed to `subscriptions` gets an event of `type`. */
export function subscriptionMatches(subscriptions: readonly string[], type: string): boolean {
  return subscriptions.some(
    (s) => s === '*' || s === type || (s.endsWith('.*') && type.startsWith(s.slice(0, -1))),
  );
}

/**
 * A filter on event types (GET /deliveries?event_type=, the event log): a catalog type, or a
 * family `<prefix>.*` whose prefix starts at least one catalog type (`booking.*`,
 * `conversation.message.*`).
 */
export function isEventTypeFilter(value: string): boolean {
  if (EVENT_TYPE_NAMES.includes(value)) return true;
  if (!value.endsWith('.*') || value.length < 3) return false;
  const prefix = value.slice(0, -1);
  return EVENT_TYPE_NAMES.some((type) => type.startsWith(prefix));
}

/** The Prisma condition on a type column for a filter accepted by `isEventTypeFilter`. */
export function eventTypeCondition(filter: string): string | { startsWith: string } {
  return filter.endsWith('.*') ? { startsWith: filter.slice(0, -1) } : filter;
}

/**
 * `data.object.id` of an event: copied onto its deliveries for the `object_id` filter, and shown in
 * the dashboard's event log.
 */
export function objectIdOf(data: { object: unknown }): string | null {
  const object = data.object as { id?: unknown } | null;
  return typeof object?.id === 'string' ? object.id : null;
}
