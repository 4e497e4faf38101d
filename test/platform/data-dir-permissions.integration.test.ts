// A DATA_DIR the embedded PostgreSQL cannot use stops start-up with one line naming the directory
// and the remedy (docs/decisions.md "Security"), instead of initdb's "Permission denied" from deep inside.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockedAncestor } from '@/server/db/embedded';

const base = mkdtempSync(path.join(tmpdir(), 'switchboard-datadir-'));
const locked = path.join(base, 'locked');
mkdirSync(path.join(locked, 'inner'), { recursive: true });
chmodSync(base, 0o755);
chmodSync(locked, 0o700);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the embedded database directory', () => {
  it('finds the first directory another user cannot enter', () => {
    const other = { uid: 54_321, gid: 54_321 };
    expect(blockedAncestor(path.join(locked, 'inner', 'data'), other)).toBe(locked);
    expect(blockedAncestor(path.join(base, 'open'), other)).toBeNull();
  });

  it('stops `npm start` as root with one line naming the directory and the remedy', () => {
    if (process.getuid?.() !== 0) {
      // Not root: PostgreSQL runs as this user, who can enter its own directories.
      expect(
        blockedAncestor(locked, { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 }),
      ).toBeNull();
      return;
    }
    const out = spawnSync(process.execPath, ['--import', 'tsx', 'server/launcher/main.ts', 'start'], {
      env: {
        NODE_ENV: 'production',
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: path.join(locked, 'inner', 'data'),
        AUTH_SECRET: 'x'.repeat(40),
        SECRETS_KEY: 'y'.repeat(40),
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out.status).toBe(1);
    const lines = out.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`cannot enter ${locked}`);
    expect(lines[0]).toContain(`chmod o+x ${locked}`);
  });
});
