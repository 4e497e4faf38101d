import { z } from 'zod';
import { ListQuery } from '@/server/api/schemas/common';
import { CreateWebhookBody, DeliveryStatus, UpdateWebhookBody } from '@/server/api/schemas/webhooks';
import { adminProcedure, createTRPCRouter, dashboardPage, IdInput } from '@/server/trpc/init';
import {
  createEndpoint,
  deleteEndpoint,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
} from '@/server/webhooks';

/** Settings > Webhooks: endpoints and their deliveries, through the webhook domain functions. */
export const webhooksRouter = createTRPCRouter({
  list: adminProcedure
    .input(ListQuery.partial().extend(dashboardPage(100)))
    .query(({ ctx, input }) => listEndpoints(ctx.db, ctx.tenantId, input)),
  get: adminProcedure.input(IdInput).query(({ ctx, input }) => getEndpoint(ctx.db, ctx.tenantId, input)),
  create: adminProcedure
    .input(CreateWebhookBody)
    .mutation(({ ctx, input }) => createEndpoint(ctx.db, ctx.tenantId, input)),
  update: adminProcedure
    .input(IdInput.extend(UpdateWebhookBody.shape))
    .mutation(({ ctx, input }) => updateEndpoint(ctx.db, ctx.tenantId, input)),
  delete: adminProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    await deleteEndpoint(ctx.db, ctx.tenantId, input);
    return { id: input.id, deleted: true as const };
  }),
  rotateSecret: adminProcedure
    .input(IdInput)
    .mutation(({ ctx, input }) => rotateSecret(ctx.db, ctx.tenantId, input)),
  sendTest: adminProcedure
    .input(IdInput)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.db, ctx.tenantId, input)),
  deliveries: adminProcedure
    .input(
      ListQuery.partial()
        .extend(dashboardPage(50))
        .extend({
          /** Omitted: deliveries across all endpoints (the "Failed deliveries" view). */
          endpointId: z.string().min(1).max(100).optional(),
          status: DeliveryStatus.optional(),
        }),
    )
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.tenantId, input)),
  delivery: adminProcedure.input(IdInput).query(({ ctx, input }) => getDelivery(ctx.db, ctx.tenantId, input)),
  resend: adminProcedure
    .input(IdInput)
    .mutation(({ ctx, input }) => resendDelivery(ctx.db, ctx.tenantId, input)),
});
