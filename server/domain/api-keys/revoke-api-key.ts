import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { usableKeys } from './serialize';

/** Revoked at once; a key that no longer authenticates is not found. */
export async function revokeApiKey(ctx: OperationContext, input: { id: string }): Promise<void> {
  const { count } = await ctx.db.apiKey.updateMany({
    where: { id: input.id, ...usableKeys() },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw Errors.notFound('API key');
}
