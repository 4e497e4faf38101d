// Settings > Webhooks: endpoints and their deliveries, through the webhook domain functions.
import { z } from 'zod';
import { ListQuery } from '@/server/lib/schemas';
import { adminProcedure, createTRPCRouter, dashboardPage, IdInput } from '@/server/trpc/init';
import {
  createEndpoint,
  deleteEndpoint,
  endpointDeliveryStats,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  recoverDeliveries,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
  verifyReceiver,
} from '@/server/webhooks';
import {
  CreateWebhookInput,
  createdOrder,
  createdOrderIssue,
  deliveryFilters,
  RecoverDeliveriesInput,
  StatsQuery,
  UpdateWebhookInput,
} from '@/server/webhooks/schemas';

export const webhooksRouter = createTRPCRouter({
  list: adminProcedure
    .input(ListQuery.partial().extend(dashboardPage(100)))
    .query(({ ctx, input }) => listEndpoints(ctx, input)),
  get: adminProcedure.input(IdInput).query(({ ctx, input }) => getEndpoint(ctx, input)),
  create: adminProcedure.input(CreateWebhookInput).mutation(({ ctx, input }) => createEndpoint(ctx, input)),
  update: adminProcedure
    .input(IdInput.extend(UpdateWebhookInput.shape))
    .mutation(({ ctx, input }) => updateEndpoint(ctx, input)),
  delete: adminProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    await deleteEndpoint(ctx, input);
    return { id: input.id, deleted: true as const };
  }),
  rotateSecret: adminProcedure.input(IdInput).mutation(({ ctx, input }) => rotateSecret(ctx, input)),
  sendTest: adminProcedure.input(IdInput).mutation(({ ctx, input }) => sendTestEvent(ctx, input)),
  /** Four signed requests to the endpoint (not deliveries); the report of REST's verify-receiver. */
  verifyReceiver: adminProcedure.input(IdInput).mutation(({ ctx, input }) => verifyReceiver(ctx, input)),
  deliveries: adminProcedure
    .input(
      ListQuery.partial()
        .extend(dashboardPage(50))
        .extend({
          /** Omitted: deliveries across all endpoints (the "Failed deliveries" view). */
          endpointId: z.string().min(1).max(100).optional(),
          /** The event log's "deliveries this event caused". */
          eventId: z.string().min(1).max(100).optional(),
          ...deliveryFilters,
        })
        .refine(createdOrder, createdOrderIssue),
    )
    .query(({ ctx, input }) => listDeliveries(ctx, input)),
  /** The endpoint page's chart: REST's GET /webhooks/{id}/stats. */
  stats: adminProcedure
    .input(IdInput.extend(StatsQuery.shape))
    .query(({ ctx, input }) => endpointDeliveryStats(ctx, input)),
  delivery: adminProcedure.input(IdInput).query(({ ctx, input }) => getDelivery(ctx, input)),
  resend: adminProcedure.input(IdInput).mutation(({ ctx, input }) => resendDelivery(ctx, input)),
  /** REST's POST /webhooks/{id}/recover: `dry_run` counts, otherwise requeues; answers `{ count, dry_run }`. */
  recover: adminProcedure.input(IdInput.and(RecoverDeliveriesInput)).mutation(async ({ ctx, input }) => {
    const { dryRun, count } = await recoverDeliveries(ctx, input);
    return { count, dry_run: dryRun };
  }),
});
