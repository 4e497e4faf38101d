// The embedded cluster's stop: the launcher awaits it on shutdown, so it must return even when
// the PostgreSQL it started has already gone away (the stop hung forever before).
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';

const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-embedded-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('stopping the embedded database', () => {
  it('returns at once when its PostgreSQL was killed behind its back', async () => {
    const database = await ensureEmbeddedDatabase(dir);
    const pid = Number(readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    const started = Date.now();
    await database.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);
});
