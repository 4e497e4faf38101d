// Every periodic job of the service, in one list. Who runs them depends on the engine, like the rest
// of the background work: on the worker engine the long-running server's local timers
// (./periodic.ts), on Inngest one cron function each (./inngest/functions.ts), which is how they run
// on serverless hosts. Every job is idempotent and safe to run on several instances at once.

import { deleteExpiredIdempotencyKeys } from '@/server/db/idempotency-retention';
import { deleteExpiredAssistantSessions } from '@/server/domain/assistant-sessions/delete-expired-sessions';
import { failInterruptedMessages } from '@/server/domain/conversations/fail-interrupted-messages';
import { sendScheduledMessages } from '@/server/domain/conversations/send-scheduled-messages';
import { deleteExpiredEvents } from '@/server/events/retention';

export interface PeriodicJob {
  /** Stable id: the Inngest function id and the log name. */
  name: string;
  /** Inngest cron schedule, and the same period (`everyMs`) for the local timer. */
  cron: string;
  everyMs: number;
  /** Returns a small summary for the log. */
  run(): Promise<Record<string, number>>;
}

export const PERIODIC_JOBS: PeriodicJob[] = [
  {
    // Outbound messages a crash left `queued` become `failed` with their event.
    name: 'fail-interrupted-messages',
    cron: '* * * * *',
    everyMs: 60_000,
    run: async () => ({ failed: await failInterruptedMessages() }),
  },
  {
    // Outbound messages Meta's rate limit (130429) held back are sent again when their wait is over.
    name: 'send-scheduled-messages',
    cron: '* * * * *',
    everyMs: 2_000,
    run: async () => ({ sent: await sendScheduledMessages() }),
  },
  {
    // EVENT_RETENTION_DAYS: expired events with their deliveries and attempts, 500 per transaction,
    // at most 20 s per pass (a backlog is worked off over the following hours), never a pending delivery.
    name: 'delete-expired-events',
    cron: '17 * * * *',
    everyMs: 3_600_000,
    run: async () => ({ deleted: await deleteExpiredEvents({ budgetMs: 20_000 }) }),
  },
  {
    // Idempotency-Key answers past their 24 h (they may hold one-time secrets), 500 per statement.
    name: 'delete-expired-idempotency-keys',
    cron: '*/10 * * * *',
    everyMs: 600_000,
    run: async () => ({ deleted: await deleteExpiredIdempotencyKeys({ budgetMs: 20_000 }) }),
  },
  {
    // Assistant sessions past their expiry (at most an hour after they were minted), 500 per statement.
    name: 'delete-expired-assistant-sessions',
    cron: '*/10 * * * *',
    everyMs: 600_000,
    run: async () => ({ deleted: await deleteExpiredAssistantSessions({ budgetMs: 20_000 }) }),
  },
];
