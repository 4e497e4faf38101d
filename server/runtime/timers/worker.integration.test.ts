import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { directDatabaseUrl } from '@/server/db/client';
import { TIMER_CHANNEL } from '@/server/timers/plan';
import { claimTimers } from './sql/claim-timers';
import { startTimerWorker } from './worker';

// stop() must not wait out the loop's sleep: a stop that lands while the loop is in a query used to
// let it go on to sleep until the next timer (up to a minute), holding a server's shutdown that long.
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: directDatabaseUrl() });
  await admin.connect();
});
afterAll(() => admin.end());

/** Resolves once a session other than `admin` waits for a lock on `timers` (the worker's claim). */
async function claimBlocked() {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await admin.query(
      `select count(*)::int as n from pg_stat_activity
       where wait_event_type = 'Lock' and query like $1 and pid <> pg_backend_pid()`,
      [`${claimTimers.text.slice(0, 20)}%`],
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the timer worker never reached its claim');
}

it('stops at once when stop() comes while the loop is in a query', async () => {
  const worker = await startTimerWorker();
  const locker = new pg.Client({ connectionString: directDatabaseUrl() });
  await locker.connect();
  try {
    // Reads go on; the claim's FOR UPDATE waits for this lock.
    await locker.query('begin');
    await locker.query('lock table timers in exclusive mode');
    await admin.query(`select pg_notify('${TIMER_CHANNEL}', '')`);
    await claimBlocked();
    const stopping = worker.stop();
    await locker.query('commit');
    const stoppedIn = await Promise.race([
      stopping.then(() => 'stopped'),
      new Promise((resolve) => setTimeout(() => resolve('still sleeping'), 5_000)),
    ]);
    expect(stoppedIn).toBe('stopped');
  } finally {
    await locker.end();
    await worker.stop();
  }
}, 75_000); // when it fails, stop() still waits out the sleep (a minute) before the test ends
