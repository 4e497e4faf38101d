// Retention of stored Idempotency-Key answers (server/http/idempotency.ts). They can hold one-time
// secrets (a new API key, a webhook secret, an invitation link), so expired rows are deleted by a
// periodic job (server/runtime/jobs.ts) instead of lingering until the same key is reused.
import { maintenanceDb } from './maintenance';
import { deleteExpiredIdempotencyKeys as deleteBatch } from './sql/delete-expired-idempotency-keys';

const IDEMPOTENCY_RETENTION_BATCH = 500;

/**
 * Deletes expired keys with their stored answers, oldest first, in batches of their own short
 * statement along the `expires_at` index, until none is left or the time budget is spent (the next
 * pass goes on). Cross-tenant by design (a maintenance pass, like event retention); safe on several
 * instances at once (SKIP LOCKED keeps their batches apart). A key that expired is free again anyway:
 * the next request with it deletes it before claiming it.
 */
export async function deleteExpiredIdempotencyKeys(
  options: { batch?: number; budgetMs?: number } = {},
): Promise<number> {
  const batch = options.batch ?? IDEMPOTENCY_RETENTION_BATCH;
  const stopAt = Date.now() + (options.budgetMs ?? 20_000);
  let deleted = 0;
  for (;;) {
    const gone = await deleteBatch.execute(maintenanceDb(), batch);
    deleted += gone;
    if (gone < batch || Date.now() >= stopAt) return deleted;
  }
}
