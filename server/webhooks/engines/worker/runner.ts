// The in-process worker engine. It claims due deliveries in batches (./queue.ts: fairly, within
// the per-tenant and per-endpoint caps) and sends at most `concurrency` attempts at once: a slot is
// free again once its request is answered, while the attempt's record commits with others' (and ends
// its claim, so the caps count it until then). A NOTIFY from the outbox transaction wakes it as soon as new
// deliveries commit; polling every `pollIntervalMs` finds retries as they fall due (and keeps it
// working while the listening connection is down). Several processes may run it against one
// database: their claims take turns under one lock (./sql/lock-claims.sql), so none claims a
// delivery another holds.
import pg from 'pg';
import { settings } from '@/server/config/settings';
import { databaseUrl } from '@/server/db/client';
import { listen } from '@/server/db/listen';
import { logger } from '@/server/log';
import {
  type AttemptJob,
  type AttemptStore,
  type LoadedDelivery,
  runAttempt,
} from '@/server/webhooks/attempt/run-attempt';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';
import { batchedAttemptRecorder } from './attempt-store';
import { type Caps, CLAIM_MARGIN_MS, claimDue, claimLeaseMs } from './queue';
import { releaseClaims } from './sql/release-claims';

export interface DeliveryWorker {
  stop(): Promise<void>;
}

export interface WorkerOptions {
  connectionString?: string;
  concurrency?: number;
  pollIntervalMs?: number;
  /** In flight per tenant and per endpoint, across every worker (default: the settings). */
  caps?: Partial<Caps>;
}

type Claimed = LoadedDelivery & { claimedAt: number };

/**
 * How long after an attempt finishes the worker claims again when its last claim came back short:
 * the attempts that finish meanwhile share that claim. Under a cap every finished attempt makes room
 * for one more, and a claim per attempt would cost more than a loopback attempt (the claim takes the
 * claim lock and looks at every tenant's due deliveries). New deliveries (NOTIFY) are claimed at once.
 */
const CLAIM_COALESCE_MS = 2;

/**
 * How far claims run ahead of the attempts, per slot. Claims run one at a time across every worker
 * and cost about the same however many deliveries they take (4–5 ms on the bench's machine), so a
 * deeper claim serves more attempts: draining one tenant's backlog to 10 receivers on the bench's
 * machine, 6 instead of 3 took the worker from ~1,100 to ~1,400 deliveries/s in side-by-side runs.
 * Under the fairness caps a claim takes no more than they leave room for, whatever this says.
 */
export const CLAIM_AHEAD_PER_SLOT = 6;

export async function startDeliveryWorker(options: WorkerOptions = {}): Promise<DeliveryWorker> {
  const connectionString = options.connectionString ?? databaseUrl();
  const concurrency = options.concurrency ?? 10;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const config = settings();
  const timeoutMs = config.WEBHOOK_TIMEOUT_MS;
  const leaseMs = claimLeaseMs(timeoutMs);
  const caps: Caps = {
    perTenant: options.caps?.perTenant ?? config.WEBHOOK_MAX_IN_FLIGHT_PER_TENANT,
    perEndpoint: options.caps?.perEndpoint ?? config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
  };
  // Claims run ahead of the attempts by up to this many deliveries, so one claim serves many attempts.
  const prefetch = concurrency * CLAIM_AHEAD_PER_SLOT;

  // A cross-tenant pass, like maintenanceDb() (server/db/maintenance.ts): its claims read every
  // tenant's due deliveries, and each attempt then acts in its own delivery's tenant.
  const pool = new pg.Pool({ connectionString, max: concurrency + 2 });
  // Idle clients can error (database restart); without a handler that would crash the process.
  pool.on('error', (error) => logger().warn({ err: error }, 'delivery worker pool client error'));
  const record = batchedAttemptRecorder(pool);

  const claimed: Claimed[] = [];
  /** Every attempt not finished yet, its record included (stop() waits for them). */
  const running = new Set<Promise<void>>();
  /** Attempts whose request is not answered yet: at most `concurrency`. */
  let sending = 0;
  /** The claim under way, if any (one at a time). */
  let claiming: Promise<void> | undefined;
  /**
   * The last claim found fewer due deliveries than it asked for (none due, the rest capped, or
   * beyond each endpoint's share of the claim): wait for a NOTIFY, a finished attempt or the next
   * poll.
   */
  let caughtUp = false;
  /** Counts wake-ups, so one that arrives while a claim is under way is not lost. */
  let wakes = 0;
  let stopping = false;

  const start = (delivery: Claimed) => {
    const job: AttemptJob = {
      tenantId: delivery.tenantId,
      deliveryId: delivery.id,
      attempt: delivery.attemptCount + 1,
    };
    sending++;
    let answered = false;
    // Its slot is free once the request is answered (the attempt then records, which needs no slot).
    const freeSlot = () => {
      if (answered) return;
      answered = true;
      sending--;
      pump();
    };
    const store: AttemptStore = {
      load: async () => delivery,
      record: (result) => {
        freeSlot();
        return record(result);
      },
    };
    const attempt = runAttempt(job, { store })
      .then(() => undefined)
      .catch((error) => {
        // Nothing was recorded, so the claim lapses and the delivery runs again.
        logger().error(
          { err: error, delivery_id: delivery.id },
          'delivery attempt failed; it runs again when its claim lapses',
        );
      })
      .finally(() => {
        freeSlot(); // an attempt that recorded nothing (skipped, throttled, failed)
        running.delete(attempt);
        // Its record ended the claim. When the last claim came back short, deliveries may wait for
        // this room under a cap: claim again, together with the attempts that finish in the next
        // moments (one claim, not one each). Otherwise the buffer still has work.
        if (caughtUp) claimSoon();
        else pump();
      });
    running.add(attempt);
  };

  const claim = async () => {
    const wakesBefore = wakes;
    try {
      const limit = prefetch - claimed.length;
      const rows = await claimDue(pool, limit, leaseMs, caps);
      const claimedAt = Date.now();
      for (const row of rows) claimed.push({ ...row, claimedAt });
      // A commit notified during the claim may be newer than the claim's snapshot: claim again.
      caughtUp = rows.length < limit && wakes === wakesBefore;
    } catch (error) {
      caughtUp = true; // try again at the next poll
      logger().warn({ err: error }, 'claiming deliveries failed; retrying at the next poll');
    }
  };

  function pump() {
    if (stopping) return;
    while (sending < concurrency && claimed.length > 0) {
      const next = claimed.shift() as Claimed;
      // Start only what can finish inside its claim; the rest lapses and is claimed again.
      if (Date.now() - next.claimedAt <= leaseMs - timeoutMs - CLAIM_MARGIN_MS) start(next);
    }
    if (!claiming && !caughtUp && claimed.length <= concurrency) {
      claiming = claim().finally(() => {
        claiming = undefined;
        pump();
      });
    }
  }

  const wake = () => {
    wakes++;
    caughtUp = false;
    pump();
  };
  let soon: NodeJS.Timeout | undefined;
  const claimSoon = () => {
    // A slot is free now: start what is already claimed at once; claim more a moment later.
    pump();
    soon ??= setTimeout(() => {
      soon = undefined;
      wake();
    }, CLAIM_COALESCE_MS);
  };

  // NOTIFY from the outbox's commits; polling covers the gaps while the connection is down.
  const listener = await listen(DELIVERIES_CHANNEL, {
    name: 'delivery worker',
    connectionString: options.connectionString,
    onNotification: wake,
    onListening: wake, // whatever committed while nobody listened
  });
  const poll = setInterval(wake, pollIntervalMs);
  logger().info({ concurrency, claim_lease_ms: leaseMs }, 'delivery worker started');

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        clearInterval(poll);
        clearTimeout(soon);
        await claiming;
        // Give back what was claimed but not started (else it lapses); nothing new starts now.
        const unstarted = claimed.splice(0).map((c) => c.id);
        if (unstarted.length > 0) await releaseClaims.pgRows(pool, [unstarted]).catch(() => undefined);
        await Promise.all(running);
        await listener.stop();
        await pool.end();
        logger().info('delivery worker stopped');
      })();
      return stopped;
    },
  };
}
