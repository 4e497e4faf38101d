// A real PgBouncer in transaction mode (Debian's `pgbouncer`) in front of a PostgreSQL, the way a
// managed provider's pooler fronts DATABASE_URL in production. Server connections are
// handed to a client for one transaction only, so anything that leans on a session (named prepared
// statements, LISTEN, session advisory locks, SET) breaks through it, as it would there.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, postgresUser } from '@/server/db/embedded';

export const PGBOUNCER_BINARY = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** `upstreamUrl` with host and port replaced by PgBouncer's: the same user, password and database. */
  url(upstreamUrl: string): string;
  stop(): Promise<void>;
}

export async function startPgBouncer(upstreamUrl: string): Promise<PgBouncer> {
  const upstream = new URL(upstreamUrl);
  const user = decodeURIComponent(upstream.username);
  const password = decodeURIComponent(upstream.password);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-pgbouncer-'));
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  writeFileSync(path.join(dir, 'userlist.txt'), `${quote(user)} ${quote(password)}\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      // Every database name the client asks for, on the upstream server.
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = plain',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 20',
      'max_client_conn = 1000',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      // Sent by some clients at start-up; a transaction pooler cannot keep session settings.
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: it then runs as the user the embedded PostgreSQL runs as.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const postgres = postgresUser();
    if (!postgres) throw new Error('no postgres user to run pgbouncer as');
    chmodSync(dir, 0o755);
    chownSync(dir, postgres.uid, postgres.gid);
  }
  const args = [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')];
  const child: ChildProcess = spawn(PGBOUNCER_BINARY, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failure = () => {
    let log = '';
    try {
      log = readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8');
    } catch {}
    return new Error(`pgbouncer did not start (${PGBOUNCER_BINARY}): ${stderr}${log}`.trim());
  };
  child.once('error', () => {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw failure();
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw failure();
    }
    if (await accepts(port)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url(upstreamUrl) {
      const pooled = new URL(upstreamUrl);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
