// LISTEN on a PostgreSQL channel, on a connection of its own, reconnected when it drops. LISTEN
// needs a session, so it uses the direct URL when a transaction-mode pooler fronts DATABASE_URL.
// Every long-running listener of the service goes through here (the runtime's worker loops and its
// Inngest relay, the credential cache); each also looks at its rows on its own schedule, so a notice
// lost while the connection was down delays work but never strands it.
import pg from 'pg';
import { logger } from '@/server/log';
import { directDatabaseUrl } from './client';

const RECONNECT_AFTER_MS = 1_000;

export interface ListenOptions {
  /** Names the listener in the logs. */
  name: string;
  /** The database (default: the direct URL). */
  connectionString?: string;
  onNotification: () => void;
  /** After every (re)connect: look at what was committed while nobody listened. */
  onListening?: () => void;
  /** The connection dropped (a reconnect follows). */
  onLost?: () => void;
  /** The listener must not keep the process alive on its own (a CLI run, a test worker). */
  unref?: boolean;
}

export interface Listener {
  /** Whether LISTEN is in effect now. */
  listening(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts listening on one channel or several (one connection); resolves once the first attempt to
 * connect has succeeded or failed.
 */
export async function listen(channels: string | string[], options: ListenOptions): Promise<Listener> {
  let client: pg.Client | undefined;
  let active = false;
  let stopping = false;
  let reconnect: NodeJS.Timeout | undefined;

  const retryLater = () => {
    if (stopping) return;
    reconnect = setTimeout(() => void connect(), RECONNECT_AFTER_MS);
    if (options.unref) reconnect.unref();
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: options.connectionString ?? directDatabaseUrl() });
    client = next;
    next.on('notification', options.onNotification);
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
      for (const channel of [channels].flat()) await next.query(`listen ${channel}`);
      if (stopping || client !== next) return;
      active = true;
      options.onListening?.();
    } catch (error) {
      logger().warn({ err: error }, `${options.name} could not listen; retrying`);
      if (client === next) client = undefined;
      await next.end().catch(() => undefined);
      retryLater();
    }
  };

  await connect();
  return {
    listening: () => active,
    async stop() {
      stopping = true;
      active = false;
      clearTimeout(reconnect);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
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
