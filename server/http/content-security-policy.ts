// The Content-Security-Policy of every page the app serves (the dashboard, the public pages behind
// one-time links, /login, /docs), with a fresh nonce per request (issue 21, finding 8). proxy.ts
// makes the nonce and sets the policy on the response, and on the request, where Next.js reads the
// nonce and puts it on its own scripts (its documented way); /docs (app/docs/route.ts) puts it on its
// two. 'strict-dynamic' lets those scripts load the rest (Next's chunks, Scalar's), and nothing else
// runs: no inline script without the nonce, no other origin, no eval in production.
//
// Styles may be inline ('unsafe-inline'): React renders style attributes and Scalar adds <style>
// elements at run time, and a nonce in style-src would void 'unsafe-inline'. With images, fonts and
// connections limited to this origin, injected CSS has no channel to send anything out.
// REST answers keep their own `frame-ancestors 'none'` (server/http/security-headers.json).

/** 128 random bits, base64: a nonce nobody can guess. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function pageContentSecurityPolicy(
  nonce: string,
  options: { development?: boolean; frameAncestors?: string[] } = {},
): string {
  // React's development build evaluates code to rebuild server stack traces; production never does.
  const evaluation = options.development ? " 'unsafe-eval'" : '';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${evaluation}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // The booking pages may be framed by exactly the origins their tenant lists; every other page by none.
    `frame-ancestors ${options.frameAncestors?.length ? options.frameAncestors.join(' ') : "'none'"}`,
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}
