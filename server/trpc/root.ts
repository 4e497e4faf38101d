// The dashboard's API. Every REST operation is also a procedure here, derived from its route
// (from-route.ts) and named by its operationId, grouped as the REST modules are; only what has no
// REST twin is written by hand: the overview and the one-time-link pages.
import { apiKeyRoutes } from '@/server/api/v1/api-keys';
import { assistantSessionRoutes } from '@/server/api/v1/assistant-sessions';
import { auditLogRoutes } from '@/server/api/v1/audit-log';
import { availabilityRoutes } from '@/server/api/v1/availability';
import { bookingRoutes } from '@/server/api/v1/bookings';
import { channelRoutes } from '@/server/api/v1/channels';
import { conversationRoutes } from '@/server/api/v1/conversations';
import { deliveryRoutes } from '@/server/api/v1/deliveries';
import { eventRoutes } from '@/server/api/v1/events';
import { memberRoutes } from '@/server/api/v1/members';
import { paymentProviderRoutes } from '@/server/api/v1/payment-providers';
import { paymentRoutes } from '@/server/api/v1/payments';
import { resourceRoutes } from '@/server/api/v1/resources';
import { serviceRoutes } from '@/server/api/v1/services';
import { webhookRoutes } from '@/server/api/v1/webhooks';
import { routerFrom } from './from-route';
import { createCallerFactory, createTRPCRouter } from './init';
import { linksRouter } from './routers/links';
import { overviewRouter } from './routers/overview';

export const appRouter = createTRPCRouter({
  apiKeys: routerFrom(apiKeyRoutes),
  assistantSessions: routerFrom(assistantSessionRoutes),
  auditLog: routerFrom(auditLogRoutes),
  bookings: routerFrom([...bookingRoutes, ...availabilityRoutes]),
  channels: routerFrom(channelRoutes),
  conversations: routerFrom(conversationRoutes),
  events: routerFrom(eventRoutes),
  members: routerFrom(memberRoutes),
  payments: routerFrom(paymentRoutes),
  paymentProviders: routerFrom(paymentProviderRoutes),
  resources: routerFrom(resourceRoutes),
  services: routerFrom(serviceRoutes),
  webhooks: routerFrom([...webhookRoutes, ...deliveryRoutes]),
  links: linksRouter,
  overview: overviewRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
