// The one LISTEN helper: notices arrive, a dropped connection is reported and reconnected (and the
// listener told, so it can look at what it missed), and passes on notices never overlap.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directDatabaseUrl } from './client';
import { listen, listenerApplicationName, passOnNotification } from './listen';

let sql: pg.Client;
beforeAll(async () => {
  sql = new pg.Client({ connectionString: directDatabaseUrl() });
  await sql.connect();
});
afterAll(() => sql.end());

async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('listen', () => {
  it('delivers notices, and reconnects after its connection is killed, saying so both ways', async () => {
    const seen = { notices: 0, listening: 0, lost: 0 };
    const listener = await listen('test_listen_helper', {
      name: 'test',
      onNotification: () => seen.notices++,
      onListening: () => seen.listening++,
      onLost: () => seen.lost++,
    });
    try {
      expect(listener.listening()).toBe(true);
      await sql.query(`notify test_listen_helper`);
      await until(() => seen.notices === 1);
      await sql.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [
        listenerApplicationName('test'),
      ]);
      await until(() => seen.lost === 1);
      await until(() => seen.listening === 2 && listener.listening());
      await sql.query(`notify test_listen_helper`);
      await until(() => seen.notices === 2);
    } finally {
      await listener.stop();
    }
    expect(listener.listening()).toBe(false);
  });

  it('runs passes at start and after notices, one at a time, one more for notices during a pass', async () => {
    let runs = 0;
    let concurrent = 0;
    let most = 0;
    const relay = await passOnNotification('test_pass_helper', {
      name: 'test pass',
      retryEveryMs: 60_000,
      pass: async () => {
        runs++;
        most = Math.max(most, ++concurrent);
        await new Promise((resolve) => setTimeout(resolve, 50));
        concurrent--;
      },
    });
    try {
      await until(() => runs === 1 && concurrent === 0);
      for (let i = 0; i < 5; i++) await sql.query(`notify test_pass_helper`);
      await until(() => runs >= 2 && concurrent === 0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(runs).toBeGreaterThanOrEqual(2);
      expect(runs).toBeLessThanOrEqual(3);
      expect(most).toBe(1);
    } finally {
      await relay.stop();
    }
  });

  it('starts no pass after stop(), even for a notice that came during the last one', async () => {
    let runs = 0;
    let finish: () => void = () => undefined;
    const relay = await passOnNotification('test_pass_stop', {
      name: 'test pass',
      retryEveryMs: 60_000,
      pass: () => {
        runs++;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
    });
    await until(() => runs === 1);
    await sql.query(`notify test_pass_stop`);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the notice marks one more pass due
    const stopped = relay.stop();
    await new Promise((resolve) => setTimeout(resolve, 50)); // the listener is gone; the pass runs on
    finish();
    await stopped;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs).toBe(1);
  });
});
