import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-launcher-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('refuses to start without its secrets, one clear line per problem', () => {
    const env = {
      NODE_ENV: 'production' as const,
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: tempDir(),
      AUTH_SECRET: 'too short',
    };
    const out = spawnSync(process.execPath, ['--import', 'tsx', 'server/launcher/main.ts', 'start'], {
      env,
      encoding: 'utf8',
    });
    expect(out.status).toBe(1);
    expect(out.stderr.trim().split('\n')).toEqual([
      '[switchboard] setting error: AUTH_SECRET must be at least 32 characters (openssl rand -base64 32)',
      '[switchboard] setting error: SECRETS_KEY is required ' +
        '(any random text of at least 32 characters: openssl rand -base64 32)',
    ]);
  });
});

describe('embedded PostgreSQL', () => {
  it('keeps committed data across a hard kill of the process group that started it', async () => {
    const dataDir = tempDir();
    // A separate process group starts the cluster, commits a row, then is killed with SIGKILL.
    const script = `
      const { ensureEmbeddedDatabase } = await import('./server/db/embedded.ts');
      const pg = (await import('pg')).default;
      const db = await ensureEmbeddedDatabase(process.argv[1]);
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      await c.query('create table survivors (name text)');
      await c.query("insert into survivors values ('committed before the kill')");
      await c.end();
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dataDir], {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`starter exited with ${code}`)));
    });
    process.kill(-(child.pid as number), 'SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // postgres may take a moment to notice its parent is gone; the pid file it leaves behind is stale.
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const deadline = Date.now() + 10_000;
    while (existsSync(pidFile) && Date.now() < deadline) {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      try {
        process.kill(pid, 0);
      } catch {
        break; // the postmaster is gone: the file is stale
      }
      await new Promise((r) => setTimeout(r, 100));
    }

    const db = await ensureEmbeddedDatabase(dataDir);
    try {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query('select name from survivors');
      await client.end();
      expect(rows).toEqual([{ name: 'committed before the kill' }]);
    } finally {
      await db.stop();
    }
  }, 60_000);
});
