import { CreateApiKeyBody, RotateApiKeyBody } from '@/server/api/schemas/auth';
import { ListQuery } from '@/server/api/schemas/common';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '@/server/domain/api-keys';
import { adminProcedure, createTRPCRouter, dashboardPage, IdInput } from '@/server/trpc/init';

/** Settings > API keys: the same domain functions and input schemas as REST /api-keys. */
export const apiKeysRouter = createTRPCRouter({
  list: adminProcedure
    .input(ListQuery.partial().extend(dashboardPage(100)))
    .query(({ ctx, input }) => listApiKeys(ctx.db, input)),
  create: adminProcedure.input(CreateApiKeyBody).mutation(({ ctx, input }) =>
    createApiKey(ctx.db, ctx.tenantId, {
      name: input.name,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
    }),
  ),
  rotate: adminProcedure
    .input(IdInput.extend(RotateApiKeyBody.shape))
    .mutation(({ ctx, input }) => rotateApiKey(ctx.db, ctx.tenantId, input.id, input.grace_seconds)),
  revoke: adminProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    await revokeApiKey(ctx.db, input.id);
    return { id: input.id, revoked: true as const };
  }),
});
