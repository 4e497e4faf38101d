// The dashboard's API: one router per area.
import { createCallerFactory, createTRPCRouter } from './init';
import { apiKeysRouter } from './routers/api-keys';
import { bookingsRouter } from './routers/bookings';
import { conversationsRouter } from './routers/conversations';
import { eventTypesRouter } from './routers/event-types';
import { eventsRouter } from './routers/events';
import { overviewRouter } from './routers/overview';
import { webhooksRouter } from './routers/webhooks';

export const appRouter = createTRPCRouter({
  apiKeys: apiKeysRouter,
  bookings: bookingsRouter,
  conversations: conversationsRouter,
  eventTypes: eventTypesRouter,
  events: eventsRouter,
  overview: overviewRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
