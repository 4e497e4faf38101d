import type { WorkerUtils } from 'graphile-worker';
import type { Pool } from 'pg';
import { logger } from '../../log';

/**
 * Crash recovery for graphile-worker. A job locked by a process that died (SIGKILL, power loss)
 * stays locked for a hard-coded 4 hours. Each process therefore writes a heartbeat for its live
 * worker ids; any process unlocks jobs held by worker ids whose heartbeat has gone stale, so a
 * killed delivery resumes within about STALE_AFTER + SWEEP_EVERY of a restart (or at once on
 * any other live process).
 */
export const HEARTBEAT_EVERY_MS = 2_000;
export const SWEEP_EVERY_MS = 5_000;
export const STALE_AFTER_S = 15;

export async function ensureHeartbeatTable(pool: Pool): Promise<void> {
  await pool.query(`create schema if not exists switchboard_queue;
    create table if not exists switchboard_queue.worker_heartbeats (
      worker_id text primary key,
      last_seen timestamptz not null default now()
    )`);
}

export function startRecovery(pool: Pool, utils: WorkerUtils, liveWorkerIds: () => string[]) {
  const beat = async () => {
    const ids = liveWorkerIds();
    if (ids.length === 0) return;
    await pool.query(
      `insert into switchboard_queue.worker_heartbeats (worker_id, last_seen)
       select unnest($1::text[]), now()
       on conflict (worker_id) do update set last_seen = excluded.last_seen`,
      [ids],
    );
  };
  const sweep = async () => {
    // Locked long enough to be suspicious, and no fresh heartbeat from the holder: its process is gone.
    const { rows } = await pool.query<{ locked_by: string }>(
      `select distinct j.locked_by from graphile_worker._private_jobs j
       where j.locked_by is not null and j.locked_at < now() - make_interval(secs => $1)
         and not exists (select 1 from switchboard_queue.worker_heartbeats h
                         where h.worker_id = j.locked_by and h.last_seen > now() - make_interval(secs => $1))`,
      [STALE_AFTER_S],
    );
    if (rows.length > 0) {
      const ids = rows.map((r) => r.locked_by);
      await utils.forceUnlockWorkers(ids);
      logger().warn({ worker_ids: ids }, 'unlocked jobs of dead workers');
    }
    await pool.query(`delete from switchboard_queue.worker_heartbeats where last_seen < now() - interval '1 day'`);
  };
  const guard = (what: string, fn: () => Promise<void>) => () => {
    fn().catch((error) => logger().error({ err: error }, `worker ${what} failed`));
  };
  const beatTimer = setInterval(guard('heartbeat', beat), HEARTBEAT_EVERY_MS);
  const sweepTimer = setInterval(guard('recovery sweep', sweep), SWEEP_EVERY_MS);
  beatTimer.unref();
  sweepTimer.unref();
  void guard('heartbeat', beat)();
  void guard('recovery sweep', sweep)();
  return {
    beat,
    sweep,
    async stop(releasedIds: string[]) {
      clearInterval(beatTimer);
      clearInterval(sweepTimer);
      if (releasedIds.length > 0) {
        await pool.query('delete from switchboard_queue.worker_heartbeats where worker_id = any($1::text[])', [releasedIds]);
      }
    },
  };
}
