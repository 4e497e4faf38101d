// API keys as a request looks them up (by prefix), cached in this process so a request does not
// read its key from PostgreSQL again. Revocation still takes effect: a revoke or rotation made by
// this instance forgets the cache as soon as it commits (`forgetCachedCredentials`), and for the
// other instances triggers (migration 20261125170000) send a NOTIFY on CREDENTIALS_CHANNEL whenever a
// key is revoked, re-dated or deleted (or a membership or a user's tokens_valid_after changes), and
// each forgets all it cached when the notice arrives: within the notice's latency after the commit
// (typically under a millisecond; a request that reaches another instance in that window may still
// be accepted). The cache is used only while this instance is listening (a dropped connection
// empties it until LISTEN is back) and its connection has proven alive within
// LISTEN_PROOF_MAX_AGE_MS (server/db/listen.ts: a heartbeat whose late echo turns caching off, so a
// connection that died without a word cannot keep a revoked key working for longer than that), never
// in serverless mode (a frozen function could answer before it reads a pending notice), and no entry
// lives longer than MAX_AGE_MS. A lookup that raced a
// notice is not kept (the generation check); a lookup that found nothing is never kept, so a new
// key works on its first request. Memberships are not cached (server/auth/principal.ts).
import { settings } from '@/server/config/settings';
import { directDatabaseUrl } from '@/server/db/client';
import { type Listener, listen } from '@/server/db/listen';

const CREDENTIALS_CHANNEL = 'switchboard_credentials';
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  until: number;
}

const holder = globalThis as unknown as {
  __switchboardCredentialCache?: {
    entries: Map<string, Entry<unknown>>;
    generation: number;
    /** The database listened to (tests and benches switch databases within a process). */
    url?: string;
    listener?: Promise<Listener>;
    /** `listener` once it has started. */
    live?: Listener;
    /** LISTEN is in effect on `url` (and `live` says it is proven alive): only then may an entry be trusted or kept. */
    listening: boolean;
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
  return !settings().SERVERLESS; // set on Vercel too (server/config/settings.ts)
}

/** Listens on `url` (and no longer on the database listened to before), without waiting for it. */
function listenOn(url: string): void {
  const s = state();
  const previous = s.listener;
  s.url = url;
  s.listening = false;
  s.live = undefined;
  forgetAll();
  void previous?.then((l) => l.stop());
  const current = listen(CREDENTIALS_CHANNEL, {
    name: 'credential cache',
    connectionString: url,
    unref: true,
    onNotification: forgetAll,
    onListening: () => {
      if (s.listener !== current) return;
      forgetAll(); // whatever changed while nobody listened
      s.listening = true;
    },
    onLost: () => {
      if (s.listener !== current) return;
      s.listening = false;
      forgetAll();
    },
  });
  s.listener = current;
  void current.then((listener) => {
    if (s.listener === current) s.live = listener;
  });
}

/** Whether an entry may be trusted or kept now: LISTEN in effect, and its connection proven alive lately. */
function trusted(): boolean {
  const s = state();
  return s.listening && s.live?.listening() === true;
}

/**
 * Forgets everything now, in this instance: a change this instance just committed holds from its
 * very next request, without waiting for the notice (which tells the other instances).
 */
export function forgetCachedCredentials(): void {
  forgetAll();
}

/** `load()`'s answer for `key`, from the cache when this instance may trust it. */
export async function cachedCredential<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
  if (!enabled()) return load();
  const s = state();
  const url = directDatabaseUrl();
  if (s.url !== url) listenOn(url);
  const now = Date.now();
  const hit = s.entries.get(key) as Entry<T> | undefined;
  if (hit && hit.until > now && trusted()) return hit.value;
  const generation = s.generation;
  const value = await load();
  if (value !== null && trusted() && generation === s.generation) {
    if (s.entries.size >= MAX_ENTRIES) s.entries.clear();
    s.entries.set(key, { value, until: now + MAX_AGE_MS });
  }
  return value;
}

/** Whether this instance listens for credential changes now (and so may answer from the cache). */
export function credentialCacheListening(): boolean {
  return trusted();
}

/** Stops listening and forgets everything (tests, shutdown). */
export async function stopCredentialCache(): Promise<void> {
  const s = state();
  const listener = s.listener;
  s.listener = undefined;
  s.live = undefined;
  s.url = undefined;
  s.listening = false;
  forgetAll();
  await (await listener)?.stop();
}
