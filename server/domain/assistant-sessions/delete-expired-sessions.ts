// The cleanup of assistant sessions (a periodic job, server/runtime/jobs.ts): a session past its
// expiry can never work again, and an ended one expires within the hour too, so its row goes. The
// audit log keeps its id. A cross-tenant maintenance pass by design (server/db/maintenance.ts).
import { maintenanceDb } from '@/server/db/maintenance';
import { deleteExpiredSessions as deleteBatch } from './sql/delete-expired-sessions';

const BATCH = 500;

/**
 * Deletes expired sessions, oldest first, in batches of their own short statement along the
 * `expires_at` index, until none is left or the time budget is spent (the next pass goes on). Safe on
 * several instances at once.
 */
export async function deleteExpiredAssistantSessions(
  options: { batch?: number; budgetMs?: number } = {},
): Promise<number> {
  const batch = options.batch ?? BATCH;
  const stopAt = Date.now() + (options.budgetMs ?? 20_000);
  let deleted = 0;
  for (;;) {
    const gone = await deleteBatch.execute(maintenanceDb(), batch);
    deleted += gone;
    if (gone < batch || Date.now() >= stopAt) return deleted;
  }
}
