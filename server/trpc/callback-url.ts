// Where to send a person after signing in (or out): only a path of this site. Shared by the login page
// (app/login/login-form.tsx, which follows `?callbackUrl=`) and next-auth's `redirect` callback
// (server/trpc/auth-options.ts); a pure function, so the browser bundle can take it too.
//
// A browser reads `//host`, `/\host` and `\\host` as another site, drops tabs and newlines anywhere
// in a URL, and resolves `/.//host` to `//host` (issue 21, finding 4). So a callback must be a path
// that starts with one `/`, holds no backslash and no control character, and stays such a path after
// dot segments are resolved and after every percent-decoding (a later hop may decode it). An absolute
// URL is accepted only with the site's own origin, and is reduced to its path. Anything else: `/`.

const FALLBACK = '/';
const MAX_LENGTH = 2048;
const RESOLVE_BASE = 'http://callback.invalid';

/** A same-site path (`/…`, with its query and fragment) for `raw`, or `/`. */
export function safeCallbackPath(raw: unknown, origin?: string): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return FALLBACK;
  let candidate = raw;
  if (!candidate.startsWith('/')) {
    const own = origin ? ownPath(candidate, origin) : null;
    if (own === null) return FALLBACK;
    candidate = own;
  }
  if (!isPlainPath(candidate)) return FALLBACK;
  // Every decoding of it must be a plain path too; one encoded more than a few times is refused.
  let decoded = candidate;
  for (let round = 0; ; round++) {
    const next = decode(decoded);
    if (next === null) return FALLBACK;
    if (next === decoded) break;
    if (round === 4 || !isPlainPath(next)) return FALLBACK;
    decoded = next;
  }
  const resolved = new URL(candidate, RESOLVE_BASE);
  if (resolved.origin !== RESOLVE_BASE) return FALLBACK;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return isPlainPath(path) ? path : FALLBACK;
}

/** One `/`, then no second `/` or `\`; no backslash or control character anywhere. */
function isPlainPath(path: string): boolean {
  return (
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.includes('\\') &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    !/[\u0000-\u001f\u007f]/.test(path)
  );
}

/** The path of an absolute URL of `origin` (never one with credentials), else null. */
function ownPath(value: string, origin: string): string | null {
  try {
    const url = new URL(value);
    const own = new URL(origin);
    if (url.origin !== own.origin || url.username || url.password) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
