// The credential lookups of a request (an API key by its prefix; a membership with its user's
// tokens_valid_after), cached in this process so a request reads neither from PostgreSQL again.
// Revocation still takes effect at once: triggers (migration 20261125170000) send a NOTIFY on
// CREDENTIALS_CHANNEL whenever a key is revoked, expires early, is deleted, or a membership or a
// user's tokens_valid_after changes, and every listening instance forgets all it cached when it
// arrives (milliseconds after the commit). The cache is used only while this instance is listening
// (a dropped connection empties it until LISTEN is back), never in serverless mode (a frozen
// function could answer before it reads a pending notice), and no entry lives longer than
// MAX_AGE_MS. A lookup that raced a notice is not kept (the generation check); a lookup that found
// nothing is never kept, so a new key or membership works on its first request.
import pg from 'pg';
import { settings } from '@/server/config/settings';
import { directDatabaseUrl } from '@/server/db/client';
import { logger } from '@/server/log';

export const CREDENTIALS_CHANNEL = 'switchboard_credentials';
export const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;
const RECONNECT_AFTER_MS = 1_000;

interface Entry<T> {
  value: T;
  until: number;
}

const holder = globalThis as unknown as {
  __switchboardCredentialCache?: {
    entries: Map<string, Entry<unknown>>;
    generation: number;
    listening: boolean;
    /** The database the listener listens on (tests and benches switch databases within a process). */
    url?: string;
    client?: pg.Client;
  };
};

function state() {
  holder.__switchboardCredentialCache ??= { entries: new Map(), generation: 0, listening: false };
  return holder.__switchboardCredentialCache;
}

function forgetAll(): void {
  const s = state();
  s.generation++;
  s.entries.clear();
}

function enabled(): boolean {
  const { VERCEL, SERVERLESS } = settings();
  return !VERCEL && !SERVERLESS;
}

function listen(url: string): void {
  const s = state();
  const client = new pg.Client({ connectionString: url });
  s.client = client;
  const lost = () => {
    if (s.client !== client) return;
    s.listening = false;
    s.client = undefined;
    forgetAll();
    setTimeout(() => {
      if (!s.client && s.url === url) listen(url);
    }, RECONNECT_AFTER_MS).unref();
  };
  client.on('notification', forgetAll);
  client.on('error', (error) => {
    logger().warn({ err: error }, 'credential cache listener lost; not caching until it is back');
    lost();
    client.end().catch(() => undefined);
  });
  client.on('end', lost);
  client
    .connect()
    .then(() => client.query(`listen ${CREDENTIALS_CHANNEL}`))
    .then(() => {
      if (s.client !== client) return;
      forgetAll(); // whatever changed while nobody listened
      s.listening = true;
    })
    .catch(() => client.end().catch(() => undefined));
  // The listener must not keep a process (a CLI run, a test worker) alive on its own.
  (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
}

/** `load()`'s answer for `key`, from the cache when this instance may trust it. */
export async function cachedCredential<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
  if (!enabled()) return load();
  const s = state();
  const url = directDatabaseUrl();
  if (s.url !== url) {
    const previous = s.client;
    s.client = undefined;
    s.listening = false;
    s.url = url;
    forgetAll();
    previous?.end().catch(() => undefined);
    listen(url);
  }
  const now = Date.now();
  const hit = s.entries.get(key) as Entry<T> | undefined;
  if (s.listening && hit && hit.until > now) return hit.value;
  const generation = s.generation;
  const value = await load();
  if (value !== null && s.listening && generation === s.generation) {
    if (s.entries.size >= MAX_ENTRIES) s.entries.clear();
    s.entries.set(key, { value, until: now + MAX_AGE_MS });
  }
  return value;
}

/** Whether this instance listens for credential changes now (and so may answer from the cache). */
export function credentialCacheListening(): boolean {
  return state().listening;
}

/** Stops listening and forgets everything (tests, shutdown). */
export async function stopCredentialCache(): Promise<void> {
  const s = state();
  const client = s.client;
  s.client = undefined;
  s.url = undefined;
  s.listening = false;
  forgetAll();
  await client?.end().catch(() => undefined);
}
