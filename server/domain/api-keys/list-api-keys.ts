import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import type { PageInput } from '@/server/lib/schemas';
import { serializeApiKey, usableKeys } from './serialize';

/** Keys that still authenticate, newest first. */
export function listApiKeys(ctx: OperationContext, input: PageInput) {
  return paginate(
    input,
    ({ after, take }) =>
      ctx.db.apiKey.findMany({ where: { ...after, ...usableKeys() }, orderBy: { id: 'desc' }, take }),
    serializeApiKey,
  );
}
