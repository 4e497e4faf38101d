import { createTRPCRouter, publicProcedure } from '../init';
import { listMemberships } from '../membership';

/** Who is signed in, and which tenants they may switch to. */
export const viewerRouter = createTRPCRouter({
  me: publicProcedure.query(({ ctx }) => ctx.viewer),
  tenants: publicProcedure.query(async ({ ctx }) => {
    if (!ctx.viewer) return [];
    const memberships = await listMemberships(ctx.viewer.userId);
    return memberships.map((m) => ({ tenantId: m.tenantId, name: m.tenant.name, role: m.role }));
  }),
});
