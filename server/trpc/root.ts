// The dashboard's API: one router per area.
import { createCallerFactory, createTRPCRouter } from './init';
import { apiKeysRouter } from './routers/api-keys';
import { auditLogRouter } from './routers/audit-log';
import { bookingsRouter } from './routers/bookings';
import { conversationsRouter } from './routers/conversations';
import { eventTypesRouter } from './routers/event-types';
import { eventsRouter } from './routers/events';
import { linksRouter } from './routers/links';
import { overviewRouter } from './routers/overview';
import { paymentsRouter } from './routers/payments';
import { teamRouter } from './routers/team';
import { webhooksRouter } from './routers/webhooks';

export const appRouter = createTRPCRouter({
  apiKeys: apiKeysRouter,
  auditLog: auditLogRouter,
  bookings: bookingsRouter,
  conversations: conversationsRouter,
  eventTypes: eventTypesRouter,
  events: eventsRouter,
  links: linksRouter,
  overview: overviewRouter,
  payments: paymentsRouter,
  team: teamRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
