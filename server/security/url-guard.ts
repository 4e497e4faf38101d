// SSRF guard for webhook targets. A target must be https and resolve only to public unicast
// addresses; loopback, private, link-local (incl. the 169.254.169.254 metadata service),
// unique-local, CGNAT, multicast and reserved ranges are refused, for IPv4, IPv6 and IPv4-mapped
// IPv6 alike. `WEBHOOK_ALLOW_PRIVATE_URLS=true` (development) allows http and local targets. The
// check runs when an endpoint is saved and again, on the resolved address actually connected to, at
// every send (server/delivery/send.ts), so DNS changes cannot sneak past it.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { settings } from '@/server/config/settings';

const ALLOWED_RANGES = new Set(['unicast']);

export class UrlNotAllowedError extends Error {}

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return ALLOWED_RANGES.has(parsed.range());
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
