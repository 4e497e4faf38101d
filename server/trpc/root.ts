// The dashboard's API: one router per area.
import { createCallerFactory, createTRPCRouter } from './init';
import { apiKeysRouter } from './routers/api-keys';
import { auditLogRouter } from './routers/audit-log';
import { bookingsRouter } from './routers/bookings';
import { conversationsRouter } from './routers/conversations';
import { eventTypesRouter } from './routers/event-types';
import { linksRouter } from './routers/links';
import { paymentsRouter } from './routers/payments';
import { teamRouter } from './routers/team';
import { webhooksRouter } from './routers/webhooks';

export const appRouter = createTRPCRouter({
  apiKeys: apiKeysRouter,
  auditLog: auditLogRouter,
  bookings: bookingsRouter,
  conversations: conversationsRouter,
  eventTypes: eventTypesRouter,
  links: linksRouter,
  payments: paymentsRouter,
  team: teamRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
