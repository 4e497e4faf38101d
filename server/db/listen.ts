// LISTEN on a PostgreSQL channel, on a connection of its own, reconnected when it drops. LISTEN
// needs a session, so it uses the direct URL when a transaction-mode pooler fronts DATABASE_URL.
// Every long-running listener of the service goes through here (the runtime's worker loops and its
// Inngest relay, the credential cache); each also looks at its rows on its own schedule, so a notice
// lost while the connection was down delays work but never strands it.
//
// A connection can die without a word: a load balancer or NAT that drops an idle connection sends no
// reset, and the socket then waits for notices that never come while it still looks open. Two things
// find out. TCP keepalive (the kernel's probes, after LISTEN_KEEPALIVE_AFTER_MS idle) closes a dead
// socket eventually, on the operating system's schedule (minutes). The heartbeat bounds it: every
// HEARTBEAT_EVERY_MS the listener NOTIFYs a channel of its own, on its own connection, and waits for
// the echo. Notices come in commit order, so an echo proves that every notice committed before the
// heartbeat was sent has arrived. `listening()` is true only while the last proof (LISTEN in effect,
// or an echo) is at most LISTEN_PROOF_MAX_AGE_MS old, so a listener whose connection died silently
// stops saying it listens within that bound of its last proof, whatever the timers do; a heartbeat
// that stays unanswered past it ends the connection (`onLost`) and a new one replaces it
// (`onListening` once LISTEN is in effect again).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { logger } from '@/server/log';
import { directDatabaseUrl } from './client';

const RECONNECT_AFTER_MS = 1_000;
/** A self-NOTIFY this often… */
export const HEARTBEAT_EVERY_MS = 2_000;
/** …whose echo may be this late… */
export const HEARTBEAT_LATE_MS = 2_000;
/** …so a listener trusts its connection for at most this long after its last proof of life. */
export const LISTEN_PROOF_MAX_AGE_MS = HEARTBEAT_EVERY_MS + HEARTBEAT_LATE_MS;
/** TCP keepalive probes start after this long without traffic. */
const LISTEN_KEEPALIVE_AFTER_MS = 10_000;
/** Connecting (and each statement: LISTEN, a heartbeat) gives up after this long. */
const LISTEN_STATEMENT_TIMEOUT_MS = 5_000;

export interface ListenOptions {
  /** Names the listener in the logs, and its connection (application_name) in pg_stat_activity. */
  name: string;
  /** The database (default: the direct URL). */
  connectionString?: string;
  onNotification: () => void;
  /** After every (re)connect: look at what was committed while nobody listened. */
  onListening?: () => void;
  /** The connection dropped, or stopped answering its heartbeat (a reconnect follows). */
  onLost?: () => void;
  /** The listener must not keep the process alive on its own (a CLI run, a test worker). */
  unref?: boolean;
}

export interface Listener {
  /** Whether LISTEN is in effect now, proven within the last LISTEN_PROOF_MAX_AGE_MS. */
  listening(): boolean;
  stop(): Promise<void>;
}

/** The connection's application_name: what an operator sees in pg_stat_activity. */
export const listenerApplicationName = (name: string) => `switchboard listen: ${name}`.slice(0, 63);

export async function listen(channels: string | string[], options: ListenOptions): Promise<Listener> {
  let client: pg.Client | undefined;
  let active = false;
  let stopping = false;
  let reconnect: NodeJS.Timeout | undefined;
  /** When the current connection last proved that notices reach it (LISTEN took effect, or an echo). */
  let provenAt = 0;
  // Only this connection listens here: its heartbeats wake no other listener.
  const heartbeatChannel = `switchboard_heartbeat_${randomBytes(8).toString('hex')}`;

  const retryLater = () => {
    if (stopping) return;
    reconnect = setTimeout(() => void connect(), RECONNECT_AFTER_MS);
    if (options.unref) reconnect.unref();
  };

  /** The socket under the client: ended without waiting for an answer that may never come. */
  const destroy = (c: pg.Client) =>
    (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();

  const heartbeat = setInterval(() => {
    const current = client;
    if (!current || !active || stopping) return;
    if (Date.now() - provenAt > LISTEN_PROOF_MAX_AGE_MS) {
      logger().warn(
        { listener: options.name, silent_ms: Date.now() - provenAt },
        `${options.name} listener: heartbeat unanswered, replacing its connection`,
      );
      destroy(current); // 'end' follows: onLost, then a new connection
      return;
    }
    current.query('select pg_notify($1, null)', [heartbeatChannel]).catch(() => undefined);
  }, HEARTBEAT_EVERY_MS);
  if (options.unref) heartbeat.unref();

  const connect = async () => {
    const next = new pg.Client({
      connectionString: options.connectionString ?? directDatabaseUrl(),
      application_name: listenerApplicationName(options.name),
      keepAlive: true,
      keepAliveInitialDelayMillis: LISTEN_KEEPALIVE_AFTER_MS,
      connectionTimeoutMillis: LISTEN_STATEMENT_TIMEOUT_MS,
      query_timeout: LISTEN_STATEMENT_TIMEOUT_MS,
    });
    client = next;
    next.on('notification', (message) => {
      if (message.channel !== heartbeatChannel) return options.onNotification();
      if (client === next) provenAt = Date.now();
    });
    next.on('error', (error) => logger().warn({ err: error }, `${options.name} listener error`));
    next.on('end', () => {
      if (stopping || client !== next) return;
      client = undefined;
      if (active) {
        active = false;
        options.onLost?.();
      }
      retryLater();
    });
    if (options.unref)
      (next as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
    try {
      await next.connect();
      for (const channel of [channels, heartbeatChannel].flat()) await next.query(`listen ${channel}`);
      if (stopping || client !== next) return;
      provenAt = Date.now();
      active = true;
      options.onListening?.();
    } catch (error) {
      logger().warn({ err: error }, `${options.name} could not listen; retrying`);
      if (client === next) client = undefined;
      destroy(next);
      await next.end().catch(() => undefined);
      retryLater();
    }
  };

  await connect();
  return {
    listening: () => active && Date.now() - provenAt <= LISTEN_PROOF_MAX_AGE_MS,
    async stop() {
      stopping = true;
      active = false;
      clearTimeout(reconnect);
      clearInterval(heartbeat);
      const last = client;
      client = undefined;
      if (last) {
        // A connection that no longer answers would keep end() waiting for its reply forever.
        const ended = last.end().catch(() => undefined);
        const timeout = setTimeout(() => destroy(last), LISTEN_STATEMENT_TIMEOUT_MS);
        await ended;
        clearTimeout(timeout);
      }
    },
  };
}

/**
 * Runs `pass` after every notice on `channels` (passes never overlap: notices during a pass run one
 * more after it), once at start, and every `retryEveryMs` in case a pass failed: the runtime's relay
 * to Inngest in a long-running server.
 */
export async function passOnNotification(
  channels: string | string[],
  options: { name: string; retryEveryMs: number; pass: () => Promise<unknown> },
): Promise<{ stop(): Promise<void> }> {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return; // a notice that came during the last pass starts none after stop()
    if (running) {
      again = true;
      return;
    }
    running = options
      .pass()
      .then(() => undefined)
      .catch((error) => logger().error({ err: error }, `${options.name} failed; it runs again`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const listener = await listen(channels, { name: options.name, onNotification: run, onListening: run });
  const retry = setInterval(run, options.retryEveryMs);
  retry.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(retry);
      await listener.stop();
      await running;
    },
  };
}
