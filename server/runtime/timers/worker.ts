// The worker engine's timers: the claim loop (../claim-loop.ts) over due rows of `timers`, woken by
// the NOTIFY a plan sends on commit and otherwise sleeping until the next due time (at most a
// minute, a safety net): no periodic sweep. Claims are fair across tenants (./sql/claim-timers.sql:
// a per-tenant cap on timers in flight, one timer of each tenant in turn), so one tenant's thousands
// of due holds never delay another tenant's hold, reminder or hand-off deadline. A claim holds its
// timers for CLAIM_LEASE_MS; a process that dies leaves claims that lapse. A timer fires once
// whatever happens, because its handler marks it fired with its effect (server/timers/plan.ts).
import pg from 'pg';
import { settings } from '@/server/config/settings';
import { databaseUrl } from '@/server/db/client';
import { pgTransaction } from '@/server/db/pool';
import { logger } from '@/server/log';
import { type DueTimer, TIMER_CHANNEL, type TimerKind } from '@/server/timers/plan';
import { type RunningLoop, startClaimLoop } from '../claim-loop';
import { fireTimer } from './fire';
import { claimTimers } from './sql/claim-timers';
import { lockTimerClaims } from './sql/lock-timer-claims';
import { nextTimer } from './sql/next-timer';
import { releaseTimerClaims } from './sql/release-timer-claims';
import { retryTimer } from './sql/retry-timer';

export const CLAIM_LEASE_MS = 30_000;
/** After a handler failed, the timer is tried again this much later (a lapsing claim would wait 30 s). */
const RETRY_AFTER_MS = 2_000;
/** The longest sleep without a NOTIFY (a safety net if one were missed while reconnecting). */
const MAX_SLEEP_MS = 60_000;

export type TimerWorker = RunningLoop;

export interface TimerWorkerOptions {
  connectionString?: string;
  /** Handlers running at once (default 5). */
  concurrency?: number;
  /** Timers of one tenant in flight at once, across every worker (default TIMER_MAX_IN_FLIGHT_PER_TENANT). */
  perTenant?: number;
}

export async function startTimerWorker(options: TimerWorkerOptions = {}): Promise<TimerWorker> {
  const concurrency = options.concurrency ?? 5;
  const perTenant = options.perTenant ?? settings().TIMER_MAX_IN_FLIGHT_PER_TENANT;
  const pool = new pg.Pool({ connectionString: options.connectionString ?? databaseUrl(), max: 2 });
  pool.on('error', (error) => logger().warn({ err: error }, 'timer worker pool client error'));

  return startClaimLoop<DueTimer>({
    name: 'timer worker',
    channel: TIMER_CHANNEL,
    connectionString: options.connectionString,
    concurrency,
    prefetch: concurrency * 4,
    idleMs: MAX_SLEEP_MS,
    claim: (limit) =>
      pgTransaction(pool, async (client) => {
        await lockTimerClaims.pgRows(client, [], { prepared: true });
        const rows = await claimTimers.pgRows(client, [limit, CLAIM_LEASE_MS, perTenant], { prepared: true });
        return rows.map(({ turn: _turn, ...timer }) => ({ ...timer, kind: timer.kind as TimerKind }));
      }),
    // A handler may call Stripe (a 10 s deadline of its own) before it commits: start it only with
    // at least half the claim left.
    startable: (claimedAt) => Date.now() - claimedAt <= CLAIM_LEASE_MS / 2,
    run: async (timer) => {
      try {
        const outcome = await fireTimer(timer);
        logger().debug({ timer_id: timer.id, kind: timer.kind, outcome }, 'timer fired');
      } catch (error) {
        logger().error(
          { err: error, timer_id: timer.id, kind: timer.kind },
          'timer failed; it runs again shortly',
        );
        await retryTimer.pgRows(pool, [timer.id, timer.tenantId, RETRY_AFTER_MS]).catch(() => undefined);
      }
    },
    release: async (timers) => {
      await releaseTimerClaims.pgRows(pool, [timers.map((t) => t.id)]);
    },
    nextDueInMs: async () => {
      const [row] = await nextTimer.pgRows(pool, [], { prepared: true });
      return row?.waitMs === null || row?.waitMs === undefined ? null : Number(row.waitMs);
    },
    close: () => pool.end(),
  });
}
