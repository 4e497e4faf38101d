import { EVENT_TYPES, isSubscribable, SUBSCRIPTION_FAMILIES } from '@/server/events/catalog';
import { createTRPCRouter, protectedProcedure } from '@/server/trpc/init';

/**
 * The event catalog (CONTRACT §5) for the dashboard, so client code reads it over tRPC instead of
 * importing server modules. `subscribable` carries the server's rule (webhook.test is not).
 */
export const eventTypesRouter = createTRPCRouter({
  list: protectedProcedure.query(() => ({
    types: EVENT_TYPES.map((e) => ({ ...e, subscribable: isSubscribable(e.type) })),
    families: [...SUBSCRIPTION_FAMILIES],
  })),
});
