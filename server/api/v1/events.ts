import { listOf } from '@/server/api/schemas/common';
import { getEvent, listEvents } from '@/server/events/list-events';
import { describeEventTypes } from '@/server/events/payloads';
import { EventEnvelope, EventListQuery, EventTypeList } from '@/server/events/schemas';
import { json, tenantRoute } from '@/server/http/route';

const tag = 'Events';

export const eventRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/event-types',
    operationId: 'listEventTypes',
    tag,
    permission: 'event_types.read',
    summary: 'The event catalog',
    responses: { 200: { description: 'Every event type', schema: EventTypeList } },
    description:
      'Each type with the JSON Schema of its envelope (what a delivery of that type carries) and an example. ' +
      'The same envelopes are documented as this document’s top-level webhooks.',
    handler: async () => json(200, { data: describeEventTypes() }),
  }),
  tenantRoute({
    method: 'GET',
    path: '/events',
    operationId: 'listEvents',
    tag,
    permission: 'events.read',
    summary: "The tenant's events, newest first (or after one, oldest first)",
    description:
      'Every recorded event of the tenant, delivered or not, as the envelope receivers get. With `after`, the ' +
      'events recorded after that one, oldest first: poll with the last id you got (this is how ' +
      '`npm run cli -- listen` forwards events without an inbound connection). Event ids are time-ordered, but ' +
      'an event can become visible a moment after a later one (concurrent transactions): a poller should ' +
      'look back a few seconds and deduplicate by id.',
    query: EventListQuery,
    responses: { 200: { description: 'One page', schema: listOf(EventEnvelope, 'EventList') } },
    handler: async ({ ctx, query }) => json(200, await listEvents(ctx, query)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/events/{id}',
    operationId: 'getEvent',
    tag,
    permission: 'events.read',
    summary: 'One event envelope, as delivered',
    responses: { 200: { description: 'The event', schema: EventEnvelope } },
    errors: [404],
    handler: async ({ ctx, params }) => json(200, await getEvent(ctx, { id: params.id })),
  }),
];
