import { z } from 'zod';
import { listOf } from '@/server/api/schemas/common';
import { Booking } from '@/server/domain/bookings/schemas';
import {
  getCalendarFeed,
  renderCalendarFeed,
  rotateCalendarFeed,
} from '@/server/domain/resources/calendar-feed';
import {
  createResource,
  createTimeOff,
  deleteResource,
  deleteTimeOff,
  getResource,
  listResources,
  listTimeOff,
  updateResource,
} from '@/server/domain/resources/manage-resources';
import { getResourceSchedule } from '@/server/domain/resources/resource-schedule';
import {
  CalendarFeed,
  CreateResourceInput,
  CreateTimeOffInput,
  Resource,
  ScheduleQuery,
  TimeOff,
  TimeOffListQuery,
  UpdateResourceInput,
  WorkingInterval,
} from '@/server/domain/resources/schemas';
import { json, noContent, publicRoute, tenantRoute } from '@/server/http/route';
import { ListQuery } from '@/server/lib/schemas';

const tag = 'Resources';

export const resourceRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/resources',
    operationId: 'listResources',
    tag,
    permission: 'resources.read',
    summary: "List the tenant's resources (staff, rooms, equipment)",
    query: ListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Resource, 'ResourceList') } },
    handler: async ({ ctx, query }) => json(200, await listResources(ctx, query)),
  }),
  tenantRoute({
    method: 'POST',
    path: '/resources',
    operationId: 'createResource',
    tag,
    permission: 'resources.write',
    summary: 'Create a resource with its time zone and weekly hours',
    description:
      'time_zone must be an IANA zone (422 otherwise); weekly hours are local times in it, expanded per local ' +
      'date (so 09:00 stays 09:00 across DST changes). Intervals of one day must not overlap (422).',
    body: CreateResourceInput,
    responses: { 201: { description: 'Created', schema: Resource } },
    handler: async ({ ctx, body }) => json(201, await createResource(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/resources/{id}',
    operationId: 'getResource',
    tag,
    permission: 'resources.read',
    summary: 'Read a resource',
    responses: { 200: { description: 'The resource', schema: Resource } },
    handler: async ({ ctx, params }) => json(200, await getResource(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'PATCH',
    path: '/resources/{id}',
    operationId: 'updateResource',
    tag,
    permission: 'resources.write',
    summary: 'Change a resource',
    description:
      'Only the fields sent change; weekly_hours is replaced whole. Existing bookings stay where they are; new ' +
      'slots and bookings follow the new hours.',
    body: UpdateResourceInput,
    responses: { 200: { description: 'The updated resource', schema: Resource } },
    handler: async ({ ctx, params, body }) =>
      json(200, await updateResource(ctx, { id: params.id, changes: body })),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/resources/{id}',
    operationId: 'deleteResource',
    tag,
    permission: 'resources.write',
    summary: 'Delete a resource',
    description:
      'Refused with 409 resource_in_use while the resource has a future pending or confirmed booking. Its time ' +
      'off goes with it, and services stop offering it (a service left without resources offers no slots).',
    responses: { 204: { description: 'Deleted' } },
    errors: [409],
    handler: async ({ ctx, params }) => {
      await deleteResource(ctx, { id: params.id });
      return noContent();
    },
  }),
  tenantRoute({
    method: 'GET',
    path: '/resources/{id}/schedule',
    operationId: 'getResourceSchedule',
    tag,
    permission: 'bookings.read',
    summary: "A resource's calendar for a window: working hours, bookings (holds included) and time off",
    description:
      'For a day or week calendar of one resource. working_hours: its weekly hours in the window as UTC ' +
      'intervals, expanded per local date of its time_zone exactly as GET /slots expands them (DST days ' +
      'included), merged and clipped to the window. bookings: every booking of the resource overlapping ' +
      '[from, to), in every status, in start order (a pending booking with hold_expires_at is a hold). time_off: ' +
      'the time off overlapping the window. At most 62 days. Several resources: one call each (the dashboard ' +
      'batches them). At most 1 MiB: bookings and time off are taken together in start order while they fit; ' +
      'truncated: true says the window held more, and everything starting before the last start listed is ' +
      'there (ask again from it for the rest).',
    query: ScheduleQuery,
    responses: {
      200: {
        description: 'The resource, its working hours, its bookings and its time off in the window',
        schema: z
          .object({
            resource: Resource,
            working_hours: z.array(WorkingInterval),
            truncated: z.boolean().meta({
              description: 'true when the window held more bookings and time off than one answer holds',
              example: false,
            }),
            bookings: z.array(Booking),
            time_off: z.array(TimeOff),
          })
          .meta({ id: 'ResourceSchedule' }),
      },
    },
    handler: async ({ ctx, params, query }) =>
      json(200, await getResourceSchedule(ctx, { id: params.id, from: query.from, to: query.to })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/resources/{id}/time-off',
    operationId: 'createTimeOff',
    tag,
    permission: 'resources.write',
    summary: 'Add time off (the resource offers no slots then)',
    description:
      'Existing bookings in that time are kept; new ones are refused. end_at must be after start_at.',
    body: CreateTimeOffInput,
    responses: { 201: { description: 'Created', schema: TimeOff } },
    handler: async ({ ctx, params, body }) =>
      json(201, await createTimeOff(ctx, { resourceId: params.id, ...body })),
  }),
  tenantRoute({
    method: 'GET',
    path: '/resources/{id}/time-off',
    operationId: 'listTimeOff',
    tag,
    permission: 'resources.read',
    summary: "A resource's time off, in time order",
    query: TimeOffListQuery,
    responses: {
      200: {
        description: 'The time off (at most 1000 entries)',
        schema: z.object({ data: z.array(TimeOff) }).meta({ id: 'TimeOffList' }),
      },
    },
    handler: async ({ ctx, params, query }) =>
      json(200, await listTimeOff(ctx, { resourceId: params.id, ...query })),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/resources/{id}/time-off/{time_off_id}',
    operationId: 'deleteTimeOff',
    tag,
    permission: 'resources.write',
    summary: 'Remove time off',
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ ctx, params }) => {
      await deleteTimeOff(ctx, { resourceId: params.id, id: params.time_off_id });
      return noContent();
    },
  }),
  tenantRoute({
    method: 'GET',
    path: '/resources/{id}/calendar-token',
    operationId: 'getResourceCalendarFeed',
    tag,
    permission: 'resources.write',
    summary: "The resource's private calendar feed URL",
    description:
      'An iCalendar URL that Google Calendar and Apple Calendar can subscribe to. Calendar apps keep the URL, so ' +
      'it can be read again here (its token is stored as a hash and, sealed, to show it again; never in the clear).',
    responses: { 200: { description: 'The feed URL', schema: CalendarFeed } },
    handler: async ({ ctx, params }) => json(200, await getCalendarFeed(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/resources/{id}/calendar-token',
    operationId: 'rotateResourceCalendarFeed',
    tag,
    permission: 'resources.write',
    summary: "Rotate the resource's calendar feed token",
    description: 'The old URL stops working at once; subscribers must use the new one. Audited.',
    responses: { 200: { description: 'The new feed URL', schema: CalendarFeed } },
    secretResponse: true,
    handler: async ({ ctx, params }) => json(200, await rotateCalendarFeed(ctx, { id: params.id })),
  }),
  publicRoute({
    method: 'GET',
    path: '/resources/{id}/calendar.ics',
    operationId: 'getResourceCalendar',
    tag,
    summary: "The resource's bookings and time off as an iCalendar feed",
    description:
      'For calendar subscriptions: no X-Tenant-ID and no bearer credential, the token in the URL is the ' +
      'credential (GET /resources/{id}/calendar-token gives the URL). Pending and confirmed bookings from 30 days ' +
      'ago to a year ahead (a hold as TENTATIVE) and time off. A wrong token answers 404.',
    query: z.object({ token: z.string().min(1).max(200) }),
    responses: {
      200: {
        description: 'The iCalendar feed (RFC 5545)',
        schema: z.string().meta({ id: 'ICalendar' }),
        mediaType: 'text/calendar; charset=utf-8',
      },
    },
    handler: async ({ params, query }) =>
      json(200, await renderCalendarFeed({ resourceId: params.id, token: query.token }), {
        'Cache-Control': 'private, max-age=300',
      }),
  }),
];
