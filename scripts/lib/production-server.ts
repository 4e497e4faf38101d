// Starts the production server (`npm start`, building first if needed) on a fresh embedded
// database, or on the PostgreSQL named by `DATABASE_URL` in the extra settings.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@/server/db/embedded';

export interface BenchServer {
  url: string;
  /** The `npm start` process: the launcher, the Next.js server and PostgreSQL run below it. */
  pid: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export async function startProductionServer(extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  if (!existsSync('.next/BUILD_ID')) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-'));
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AUTH_SECRET: randomBytes(32).toString('base64'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Measure the limiter's cost, not its refusals.
    API_RATE_LIMIT_PER_SECOND: '1000000',
    API_RATE_LIMIT_PER_TENANT_PER_SECOND: '1000000',
    ...extraEnv,
  };
  if (!extraEnv.DATABASE_URL) delete env.DATABASE_URL;
  const child: ChildProcess = spawn('npm', ['start'], {
    env,
    stdio: ['ignore', process.env.SERVER_LOGS ? 'inherit' : 'ignore', 'inherit'],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error('server did not become healthy in 60 s');
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid as number,
    dataDir,
    env,
    stop: async () => {
      // A server a test already killed has nothing left to stop.
      if (child.pid && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid, 'SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function cli(env: NodeJS.ProcessEnv, args: string[]): Record<string, string> {
  const out = spawnSync('npm', ['run', '-s', 'cli', '--', ...args, '--json'], { env, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop() as string);
}
