import { EventEmitter } from 'node:events';
import { makeWorkerUtils, type Runner, run, type Task, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { databaseUrl } from '../../db/client';
import { logger } from '../../log';
import { type AttemptJob, type AttemptStore, runAttempt } from '../attempt';
import { workerAttemptStore } from './attempt-store';
import { DELIVER_TASK, ensureQueueSchema, quietLogger } from './queue';
import { ensureHeartbeatTable, startRecovery } from './recovery';

/**
 * The in-process worker engine: graphile-worker's `run()` on the service database. LISTEN/NOTIFY
 * wakes it as soon as a job commits; `pollInterval` only matters for retries scheduled with a
 * future `run_at`. Several processes may run it against one database (SKIP LOCKED claims).
 */
export interface DeliveryWorker {
  stop(): Promise<void>;
  /** Live graphile worker ids of this process (for tests and diagnostics). */
  workerIds(): string[];
}

export interface WorkerOptions {
  connectionString?: string;
  concurrency?: number;
  pollIntervalMs?: number;
}

function deliverTask(store: AttemptStore): Task {
  // The store hands the next attempt's job over in the same statement that records this attempt.
  return async (payload) => {
    await runAttempt(payload as AttemptJob, { store });
  };
}

function newPool(connectionString: string, max: number, options?: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, ...(options ? { options } : {}) });
  // Idle clients can error (database restart); graphile-worker wants both handlers present.
  pool.on('error', (error) => logger().warn({ err: error }, 'worker pool client error'));
  pool.on('connect', (client) => client.on('error', (error) => logger().warn({ err: error }, 'worker pool client error')));
  return pool;
}

export async function startDeliveryWorker(options: WorkerOptions = {}): Promise<DeliveryWorker> {
  const connectionString = options.connectionString ?? databaseUrl();
  await ensureQueueSchema(connectionString);
  const concurrency = options.concurrency ?? 10;
  // Queue bookkeeping need not wait for the disk: if a crash loses a job's completion, the job
  // runs again and finds its attempt already recorded (durably, by the attempt pool below), so
  // nothing is sent twice because of it.
  const pool = newPool(connectionString, concurrency + 4, '-c synchronous_commit=off');
  // Attempts are recorded with the default, durable commit: a separate pool.
  const attemptPool = newPool(connectionString, concurrency);
  await ensureHeartbeatTable(pool);

  const live = new Set<string>();
  const events: WorkerEvents = new EventEmitter() as WorkerEvents;
  events.on('worker:create', ({ worker }) => live.add(worker.workerId));
  events.on('worker:stop', ({ worker }) => live.delete(worker.workerId));
  // With the local queue the pool itself locks batches of jobs, under its own id.
  events.on('pool:create', ({ workerPool }) => live.add(workerPool.id));
  events.on('pool:release', ({ workerPool }) => live.delete(workerPool.id));

  const runner: Runner = await run({
    pgPool: pool,
    concurrency,
    pollInterval: options.pollIntervalMs ?? 200,
    noHandleSignals: true,
    logger: quietLogger(),
    events,
    taskList: { [DELIVER_TASK]: deliverTask(workerAttemptStore(attemptPool)) },
    preset: {
      worker: {
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
        // Fetch due jobs in batches rather than one query per job (measured: see bench/webhooks.ts).
        // Each fetch costs PostgreSQL about as much at 50 jobs as at 11: five jobs per slot halved
        // the database's CPU per delivery. A process holds at most this many due jobs ahead of
        // others (released on stop, unlocked by recovery.ts if the process dies).
        localQueue: { size: concurrency * 5 },
      },
    },
  });
  const utils = await makeWorkerUtils({ pgPool: pool, logger: quietLogger() });
  const ids = [...live];
  const recovery = startRecovery(pool, utils, () => [...live]);
  logger().info({ worker_ids: ids }, 'delivery worker started');

  let stopped: Promise<void> | undefined;
  return {
    workerIds: () => [...live],
    stop() {
      stopped ??= (async () => {
        const all = [...new Set([...ids, ...live])];
        await runner.stop();
        await recovery.stop(all);
        await utils.release();
        await pool.end();
        await attemptPool.end();
        logger().info('delivery worker stopped');
      })();
      return stopped;
    },
  };
}
