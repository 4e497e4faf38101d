// The worker engine of the timers (long-running servers): an indexed claim of due timers
// (`timers (fired_at, due_at)`, FOR UPDATE SKIP LOCKED, so any number of processes share one
// database), then a sleep until the next due time, cut short by the NOTIFY a new plan sends on commit.
// No periodic sweep: the loop knows when the next timer is due. A claim holds its timers for
// CLAIM_LEASE_MS; a process that dies leaves claims that lapse, and its timers are claimed again. A
// timer fires once whatever happens, because its handler marks it fired with its effect (fire.ts).
import pg from 'pg';
import { databaseUrl } from '@/server/db/client';
import { listen } from '@/server/db/listen';
import { logger } from '@/server/log';
import { fireTimer } from './fire';
import { type DueTimer, TIMER_CHANNEL, type TimerKind } from './plan';

export const CLAIM_LEASE_MS = 30_000;
/** After a handler failed, the timer is tried again this much later (a lapsing claim would wait 30 s). */
const RETRY_AFTER_MS = 2_000;
/** The longest sleep without a NOTIFY (a safety net if one were missed while reconnecting). */
const MAX_SLEEP_MS = 60_000;
const BATCH = 20;
/** After the database failed a claim or a read, the loop tries again this much later. */
const DATABASE_RETRY_MS = 1_000;

const CLAIM_SQL = `with due as (
    select id from timers
    where fired_at is null and due_at <= now() and (locked_until is null or locked_until < now())
    order by due_at
    limit $1
    for update skip locked
  )
  update timers t set locked_until = now() + $2 * interval '1 millisecond'
  from due where t.id = due.id
  returning t.id, t.tenant_id, t.kind, t.subject_id, t.key, t.due_at, t.generation`;

/** Milliseconds until the next timer can be claimed (0: now), or null when none is planned. */
const NEXT_SQL = `select extract(epoch from (min(greatest(due_at, coalesce(locked_until, due_at))) - now())) * 1000 as wait_ms
  from timers where fired_at is null`;

export interface TimerWorker {
  stop(): Promise<void>;
}

export interface TimerWorkerOptions {
  connectionString?: string;
  concurrency?: number;
}

export async function startTimerWorker(options: TimerWorkerOptions = {}): Promise<TimerWorker> {
  const connectionString = options.connectionString ?? databaseUrl();
  const concurrency = options.concurrency ?? 5;
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on('error', (error) => logger().warn({ err: error }, 'timer worker pool client error'));

  let stopping = false;
  let sleeper: NodeJS.Timeout | undefined;
  let wakeUp: (() => void) | undefined;
  let dirty = false; // a NOTIFY arrived while a pass ran

  const wake = () => {
    dirty = true;
    wakeUp?.();
  };

  const run = async (timer: DueTimer) => {
    try {
      const outcome = await fireTimer(timer);
      logger().debug({ timer_id: timer.id, kind: timer.kind, outcome }, 'timer fired');
    } catch (error) {
      logger().error(
        { err: error, timer_id: timer.id, kind: timer.kind },
        'timer failed; it runs again shortly',
      );
      await pool
        .query(
          `update timers set locked_until = now() + $2 * interval '1 millisecond' where id = $1 and fired_at is null`,
          [timer.id, RETRY_AFTER_MS],
        )
        .catch(() => undefined);
    }
  };

  const loop = async () => {
    while (!stopping) {
      dirty = false;
      let claimed: DueTimer[] = [];
      try {
        const { rows } = await pool.query(CLAIM_SQL, [BATCH, CLAIM_LEASE_MS]);
        claimed = rows.map((r) => ({
          id: r.id,
          tenantId: r.tenant_id,
          kind: r.kind as TimerKind,
          subjectId: r.subject_id,
          key: r.key,
          dueAt: r.due_at,
          generation: r.generation,
        }));
      } catch (error) {
        logger().warn({ err: error }, 'claiming timers failed; retrying');
        await sleep(DATABASE_RETRY_MS);
        continue;
      }
      // At most `concurrency` handlers at once; the batch finishes before the next claim.
      for (let i = 0; i < claimed.length; i += concurrency) {
        await Promise.all(claimed.slice(i, i + concurrency).map(run));
      }
      if (claimed.length === BATCH || dirty) continue;
      let waitMs = MAX_SLEEP_MS;
      try {
        const { rows } = await pool.query(NEXT_SQL);
        const next = rows[0]?.wait_ms;
        if (next !== null && next !== undefined)
          waitMs = Math.min(MAX_SLEEP_MS, Math.max(0, Math.ceil(Number(next))));
      } catch (error) {
        logger().warn({ err: error }, 'reading the next timer failed');
        waitMs = DATABASE_RETRY_MS;
      }
      if (waitMs === 0 || dirty) continue;
      await sleep(waitMs);
    }
  };

  // A stop that came while the loop was in a query finds it here: it must not sleep then.
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      wakeUp = () => {
        clearTimeout(sleeper);
        wakeUp = undefined;
        resolve();
      };
      sleeper = setTimeout(() => wakeUp?.(), ms);
    });

  // NOTIFY when a plan commits; the loop also wakes at the next due time on its own.
  const listener = await listen(TIMER_CHANNEL, {
    name: 'timer worker',
    connectionString: options.connectionString,
    onNotification: wake,
    onListening: wake, // whatever was planned while nobody listened
  });
  const looping = loop();
  logger().info('timer worker started');

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wakeUp?.();
        await looping; // which waits for the handlers it started
        await listener.stop();
        await pool.end();
        logger().info('timer worker stopped');
      })();
      return stopped;
    },
  };
}
