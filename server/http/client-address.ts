// The client address used for rate limits (docs/decisions.md "Security"): never chosen by the client. The process
// that accepts connections (server/launcher/next-server.ts, or the platform on Vercel) replaces
// `X-Forwarded-For` with the one address it trusts; the app only ever reads that.

/**
 * The connecting peer, or, behind `hops` trusted proxies, the address the nearest of them recorded:
 * each proxy appends the address it saw, so the client is `hops` entries from the end of
 * `[...X-Forwarded-For, peer]`. Entries further left were written by the client and are ignored.
 */
export function resolveClientAddress(
  forwardedFor: string | string[] | undefined,
  peer: string | undefined,
  hops: number,
): string {
  const listed = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...listed, normalise(peer ?? 'unknown')];
  return chain[Math.max(0, chain.length - 1 - hops)];
}

/** The trusted client address, from the X-Forwarded-For value the accepting process rewrote. */
export function clientAddressOf(forwardedFor: unknown): string {
  return (typeof forwardedFor === 'string' && forwardedFor.split(',')[0]?.trim()) || 'unknown';
}

/** `::ffff:127.0.0.1` as Node reports IPv4 peers on a dual-stack socket → `127.0.0.1`. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
