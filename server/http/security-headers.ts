// Headers every answer of the service carries (docs/decisions.md "Security"), listed once in
// security-headers.json: next.config.mjs sends them on pages and every route Next serves, and the
// REST pipeline sets them itself so they hold wherever the API runs (Next, the test server).
// HSTS only in production: browsers ignore it over http, and a developer's localhost must not keep it.
// Pages get a fuller, nonce-based Content-Security-Policy instead (proxy.ts sets it per request, over
// the one here; server/http/content-security-policy.ts).
import headers from './security-headers.json';

function securityHeaders(production = process.env.NODE_ENV === 'production'): Record<string, string> {
  return production ? { ...headers.always, ...headers.production } : { ...headers.always };
}

export function withSecurityHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(securityHeaders())) {
    // A route's own policy (the media route's sandbox) is kept, with ours added to it.
    const own = name === 'Content-Security-Policy' ? response.headers.get(name) : null;
    response.headers.set(name, own ? `${own}; ${value}` : value);
  }
  return response;
}
