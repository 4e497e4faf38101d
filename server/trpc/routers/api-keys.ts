// Settings > API keys: the same domain functions and input schemas as REST /api-keys.
import { createApiKey } from '@/server/domain/api-keys/create-api-key';
import { listApiKeys } from '@/server/domain/api-keys/list-api-keys';
import { revokeApiKey } from '@/server/domain/api-keys/revoke-api-key';
import { rotateApiKey } from '@/server/domain/api-keys/rotate-api-key';
import { CreateApiKeyInput, RotateApiKeyInput } from '@/server/domain/api-keys/schemas';
import { ListQuery } from '@/server/lib/schemas';
import { adminProcedure, createTRPCRouter, dashboardPage, IdInput } from '@/server/trpc/init';

export const apiKeysRouter = createTRPCRouter({
  list: adminProcedure
    .input(ListQuery.partial().extend(dashboardPage(100)))
    .query(({ ctx, input }) => listApiKeys(ctx, input)),
  create: adminProcedure.input(CreateApiKeyInput).mutation(({ ctx, input }) => createApiKey(ctx, input)),
  rotate: adminProcedure
    .input(IdInput.extend(RotateApiKeyInput.shape))
    .mutation(({ ctx, input }) => rotateApiKey(ctx, input)),
  revoke: adminProcedure.input(IdInput).mutation(async ({ ctx, input }) => {
    await revokeApiKey(ctx, input);
    return { id: input.id, revoked: true as const };
  }),
});
