// The worker engine's one loop, shared by every kind of claimed work (webhook delivery attempts,
// timers). Work lives in PostgreSQL rows; a kind says how to claim due rows (a lease, so a process
// that dies never strands them), how to run one, and how to give back what it claimed but never
// started. The loop:
// - claims ahead of the running work, up to `prefetch` items, one claim at a time;
// - runs at most `concurrency` items at once (an item may free its slot before it ends: a delivery
//   frees it once its request is answered, while its record commits with others');
// - is woken by the kind's NOTIFY channel (sent on commit by whatever makes work due), and when a
//   claim comes back short it sleeps until the kind's next due time, at most `idleMs` (so work that
//   falls due with no NOTIFY, a retry, is found, and a lost NOTIFY only delays work);
// - stops in order: no new claim or start, unstarted claims given back, running items awaited, then
//   its connections closed.
import { listen } from '@/server/db/listen';
import { logger } from '@/server/log';

export interface ClaimedWork<T> {
  /** Names the loop in the logs. */
  name: string;
  /** The NOTIFY channel whose notices may mean new due work. */
  channel: string;
  /** Items running at once. */
  concurrency: number;
  /** Items claimed ahead of the running ones (at least `concurrency`). */
  prefetch: number;
  /** Claims up to `limit` due items, in the order to start them. */
  claim(limit: number): Promise<T[]>;
  /**
   * Runs one item; `freeSlot` may be called before it settles, when what is left needs no slot.
   * A rejection is logged: the item's claim lapses and it runs again.
   */
  run(item: T, freeSlot: () => void): Promise<unknown>;
  /** Whether an item claimed at `claimedAt` (epoch ms) may still start inside its claim. */
  startable(claimedAt: number): boolean;
  /** Gives back items claimed but not started when the loop stops (else their claims lapse). */
  release(items: T[]): Promise<void>;
  /**
   * Milliseconds until the next item may be due (0: now), or null when none is planned; asked when a
   * claim came back short. Without it the loop looks again after `idleMs`.
   */
  nextDueInMs?(): Promise<number | null>;
  /** The longest the loop waits without a notice when nothing is due. */
  idleMs: number;
  /** The connection string of the LISTEN connection (default: the direct URL). */
  connectionString?: string;
  /** Closes what the kind opened (its pool), after the last item settled. */
  close(): Promise<void>;
}

export interface RunningLoop {
  stop(): Promise<void>;
}

/**
 * After an item ends while the last claim came back short, the loop claims again this much later:
 * items ending meanwhile share that claim (under a fairness cap every ended item makes room for one
 * more, and a claim per item costs more than a loopback delivery).
 */
const CLAIM_COALESCE_MS = 2;
/** After a claim or a look at the next due time failed (the database), the loop tries again this much later. */
const RETRY_AFTER_FAILURE_MS = 1_000;
/**
 * A claim came back short though work is due: the rest is held by a fairness cap or by another
 * worker's claim. Room comes back when an item ends: this loop's own wake it at once, another
 * worker's are found this much later (claiming again at once would spin).
 */
const HELD_RECHECK_MS = 1_000;

export async function startClaimLoop<T>(work: ClaimedWork<T>): Promise<RunningLoop> {
  const claimed: Array<{ item: T; claimedAt: number }> = [];
  /** Every item not settled yet (stop() waits for them). */
  const running = new Set<Promise<void>>();
  /** Items holding a slot: at most `concurrency`. */
  let busy = 0;
  let claiming: Promise<void> | undefined;
  /** The last claim came back short: wait for a notice, an ended item or the next due time. */
  let caughtUp = false;
  /** Counts wake-ups, so one that arrives while a claim is under way is not lost. */
  let wakes = 0;
  let stopping = false;
  let sleeper: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;

  const start = (item: T) => {
    busy++;
    let freed = false;
    const freeSlot = () => {
      if (freed) return;
      freed = true;
      busy--;
      pump();
    };
    const settled = work
      .run(item, freeSlot)
      .then(() => undefined)
      .catch((error) => logger().error({ err: error, loop: work.name }, 'work item failed; it runs again'))
      .finally(() => {
        freeSlot();
        running.delete(settled);
        // When the last claim came back short, due items may wait for the room this one left
        // under a cap: claim again, together with the items that end in the next moments.
        if (caughtUp) claimSoon();
      });
    running.add(settled);
  };

  const claim = async () => {
    const wakesBefore = wakes;
    const limit = work.prefetch - claimed.length;
    let short: boolean;
    try {
      const items = await work.claim(limit);
      const claimedAt = Date.now();
      for (const item of items) claimed.push({ item, claimedAt });
      // A commit notified during the claim may be newer than its snapshot: claim again.
      short = items.length < limit;
    } catch (error) {
      logger().warn({ err: error, loop: work.name }, 'claiming failed; retrying');
      caughtUp = true;
      sleepFor(RETRY_AFTER_FAILURE_MS);
      return;
    }
    caughtUp = short && wakes === wakesBefore;
    if (caughtUp) sleepFor(await nextWait());
  };

  const nextWait = async (): Promise<number> => {
    if (!work.nextDueInMs) return work.idleMs;
    try {
      const next = await work.nextDueInMs();
      if (next === null) return work.idleMs;
      return next <= 0 ? HELD_RECHECK_MS : Math.min(work.idleMs, Math.ceil(next));
    } catch (error) {
      logger().warn({ err: error, loop: work.name }, 'reading the next due time failed');
      return RETRY_AFTER_FAILURE_MS;
    }
  };

  /** Wakes the loop after `ms`, unless something wakes it first. */
  const sleepFor = (ms: number) => {
    if (stopping) return;
    clearTimeout(sleeper);
    sleeper = setTimeout(wake, ms);
  };

  function pump() {
    if (stopping) return;
    while (busy < work.concurrency && claimed.length > 0) {
      const next = claimed.shift() as { item: T; claimedAt: number };
      // Only what can finish inside its claim starts; the rest lapses and is claimed again.
      if (work.startable(next.claimedAt)) start(next.item);
    }
    if (!claiming && !caughtUp && claimed.length <= work.concurrency) {
      claiming = claim().finally(() => {
        claiming = undefined;
        pump();
      });
    }
  }

  function wake() {
    wakes++;
    caughtUp = false;
    clearTimeout(sleeper);
    pump();
  }

  const claimSoon = () => {
    pump(); // a slot is free: start what is claimed at once, claim more a moment later
    soon ??= setTimeout(() => {
      soon = undefined;
      wake();
    }, CLAIM_COALESCE_MS);
  };

  const listener = await listen(work.channel, {
    name: work.name,
    connectionString: work.connectionString,
    onNotification: wake,
    onListening: wake, // whatever committed while nobody listened
  });
  logger().info({ loop: work.name, concurrency: work.concurrency }, 'worker loop started');

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        clearTimeout(sleeper);
        clearTimeout(soon);
        await claiming;
        const unstarted = claimed.splice(0).map((c) => c.item);
        if (unstarted.length > 0) {
          await work
            .release(unstarted)
            .catch((error) => logger().warn({ err: error, loop: work.name }, 'giving back claims failed'));
        }
        await Promise.all(running);
        await listener.stop();
        await work.close();
        logger().info({ loop: work.name }, 'worker loop stopped');
      })();
      return stopped;
    },
  };
}
