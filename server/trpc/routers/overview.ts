// The dashboard's home (admins): deliveries chart, endpoints needing attention, hand-off queue,
// today's bookings.
import { getOverview } from '@/server/domain/overview/get-overview';
import { OverviewInput } from '@/server/domain/overview/schemas';
import { createTRPCRouter, permittedProcedure } from '@/server/trpc/init';

export const overviewRouter = createTRPCRouter({
  get: permittedProcedure('overview.read')
    .input(OverviewInput)
    .query(({ ctx, input }) => getOverview(ctx, input)),
});
