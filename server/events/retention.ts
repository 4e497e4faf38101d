// Retention (docs/operations.md "Webhook operations", EVENT_RETENTION_DAYS): events older than the setting are deleted with
// their deliveries and attempts (foreign keys cascade), oldest first, in small batches, each its own
// short transaction, until none is left or the time budget is spent (the next pass goes on). An
// event that still has a pending delivery is kept, whatever its age. Cross-tenant by design (a
// maintenance pass); safe on several instances at once (SKIP LOCKED keeps their batches apart).
import { settings } from '@/server/config/settings';
import { maintenanceDb } from '@/server/db/maintenance';
import { deleteExpiredEvents as deleteBatch } from './sql/delete-expired-events';

const RETENTION_BATCH = 500;

export interface RetentionOptions {
  /** Default EVENT_RETENTION_DAYS; 0 keeps everything. */
  days?: number;
  batch?: number;
  /** Stop starting new batches after this long (ms). */
  budgetMs?: number;
}

/** Deletes expired events (and their deliveries and attempts); resolves to how many events went. */
export async function deleteExpiredEvents(options: RetentionOptions = {}): Promise<number> {
  const days = options.days ?? settings().EVENT_RETENTION_DAYS;
  if (days === 0) return 0;
  const batch = options.batch ?? RETENTION_BATCH;
  const stopAt = Date.now() + (options.budgetMs ?? 30_000);
  let deleted = 0;
  for (;;) {
    const gone = await deleteBatch.execute(maintenanceDb(), days, batch);
    deleted += gone;
    if (gone < batch || Date.now() >= stopAt) return deleted;
  }
}
