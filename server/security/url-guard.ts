// SSRF guard for webhook targets. A target must be https and resolve only to public unicast
// addresses; loopback, private, link-local (incl. the 169.254.169.254 metadata service),
// unique-local, CGNAT, multicast and reserved ranges are refused, for IPv4, IPv6 and IPv4-mapped
// IPv6 alike. `WEBHOOK_ALLOW_PRIVATE_URLS=true` (development) allows http and local targets. The
// check runs when an endpoint is saved and again, on the resolved address actually connected to, at
// every send (server/webhooks/attempt/send.ts), so DNS changes cannot sneak past it.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { settings } from '@/server/config/settings';

const ALLOWED_RANGES = new Set(['unicast']);

export class UrlNotAllowedError extends Error {}

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  const judged = parsed.kind() === 'ipv6' ? (embeddedIpv4(parsed as ipaddr.IPv6) ?? parsed) : parsed;
  return ALLOWED_RANGES.has(judged.range());
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits when it is IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) or IPv4-compatible (::a.b.c.d): such an
 * address reaches that IPv4 host, so it is judged as that host. 6to4, NAT64 and Teredo addresses
 * are not unwrapped: their ranges are not public unicast, so they are refused whatever they carry.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const zeroPrefix = p.slice(0, 5).every((word) => word === 0);
  const mapped = zeroPrefix && p[5] === 0xffff;
  const translated = p.slice(0, 4).every((word) => word === 0) && p[4] === 0xffff && p[5] === 0;
  // ::/96 minus :: and ::1, which ipaddr already classifies as unspecified and loopback.
  const compatible = zeroPrefix && p[5] === 0 && (p[6] !== 0 || p[7] > 1);
  if (!mapped && !translated && !compatible) return null;
  return new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
}

/** Syntax and scheme checks; returns the parsed URL. */
export function parseTargetUrl(raw: string, allowPrivate = settings().WEBHOOK_ALLOW_PRIVATE_URLS): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlNotAllowedError('url is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new UrlNotAllowedError(allowPrivate ? 'url must use http or https' : 'url must use https');
  }
  if (url.username || url.password) throw new UrlNotAllowedError('url must not contain credentials');
  return url;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Resolves the host (as the sender will) and refuses it if any address is not public. */
export async function assertPublicTarget(raw: string): Promise<void> {
  const allowPrivate = settings().WEBHOOK_ALLOW_PRIVATE_URLS;
  const url = parseTargetUrl(raw, allowPrivate);
  if (allowPrivate) return;
  const host = hostOf(url);
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new UrlNotAllowedError(`the host ${host} does not resolve`);
    }
  }
  const refused = addresses.find((a) => !isPublicAddress(a));
  if (refused) throw new UrlNotAllowedError(`the host ${host} resolves to a non-public address (${refused})`);
}
