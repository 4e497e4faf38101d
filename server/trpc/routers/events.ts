// The event log (/events): the tenant's events, newest first, by type or family; one event's payload.
// The deliveries an event caused come from webhooks.deliveries({ eventId }).
import { getEvent, listEvents } from '@/server/events/list-events';
import { EventTypeFilter } from '@/server/events/schemas';
import { ListQuery } from '@/server/lib/schemas';
import { adminProcedure, createTRPCRouter, dashboardPage, IdInput } from '@/server/trpc/init';

export const eventsRouter = createTRPCRouter({
  list: adminProcedure
    .input(ListQuery.partial().extend(dashboardPage(25)).extend({ type: EventTypeFilter.optional() }))
    .query(({ ctx, input }) => listEvents(ctx, input)),
  get: adminProcedure.input(IdInput).query(({ ctx, input }) => getEvent(ctx, input)),
});
