// Starts the production server (`npm start`, building first when there is no build or a source is
// newer than it) on a fresh embedded database, or on the PostgreSQL named by `DATABASE_URL` in the
// extra settings.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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

/** What the production build is made of: a change to any of these makes the build stale. */
const SOURCES = ['app', 'server', 'public', 'prisma', 'proxy.ts', 'instrumentation.ts', 'next.config.mjs'];
const SOURCES_ALSO = ['package-lock.json', 'tsconfig.json'];

function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, name)));
  return newest;
}

/** Whether `.next` is missing or older than a source (a bench of a stale build measures old code). */
export function buildIsStale(root = '.'): boolean {
  const id = path.join(root, '.next/BUILD_ID');
  if (!existsSync(id)) return true;
  const built = statSync(id).mtimeMs;
  return [...SOURCES, ...SOURCES_ALSO].some((entry) => newestChange(path.join(root, entry)) > built);
}

// Once per process: two servers started together share one build.
let built = false;

export async function startProductionServer(extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  if (!built && buildIsStale()) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  built = true;
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
