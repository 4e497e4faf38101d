// One HTTP POST of a webhook. Redirects are never followed (a 3xx is a failed attempt), the whole
// exchange is aborted after `timeoutMs`, and unless private targets are allowed the address
// actually connected to is checked after DNS resolution (no rebinding window). Never throws: every
// failure comes back as an outcome. Connections are kept alive per origin (one keep-alive agent per
// scheme and address policy, so a connection checked against private addresses is never lent to a
// request that must be, or the other way round): a receiver that gets many deliveries is not
// connected to (and, over TLS, shaken hands with) once per delivery.
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { hostOf, isPublicAddress, parseTargetUrl, UrlNotAllowedError } from '@/server/security/url-guard';

export const EXCERPT_BYTES = 2048;

/**
 * The stored excerpt of a response body: its first EXCERPT_BYTES as UTF-8 text that PostgreSQL
 * accepts and that stays within EXCERPT_BYTES once encoded. A character cut at the end is dropped,
 * NUL (which a text column cannot hold: the record would fail, and the attempt would be sent again
 * at every claim lapse, forever) becomes U+FFFD, and if replacements made the text longer than
 * EXCERPT_BYTES it is cut again.
 */
function excerptOf(body: Buffer): string {
  // `stream: true` on a fresh decoder leaves an incomplete trailing sequence out instead of mangling it.
  const decode = (bytes: Buffer) => new TextDecoder().decode(bytes, { stream: true });
  const text = decode(body.subarray(0, EXCERPT_BYTES)).replaceAll('\u0000', '\uFFFD');
  const encoded = Buffer.from(text, 'utf8');
  return encoded.length > EXCERPT_BYTES ? decode(encoded.subarray(0, EXCERPT_BYTES)) : text;
}

export interface SendOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

/** dns.lookup that refuses non-public answers, handed to the socket so the checked address is the one used. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses as LookupAddress[];
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused) {
      return callback(
        new UrlNotAllowedError(`${hostname} resolves to a non-public address (${refused.address})`),
        '',
        4,
      );
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/**
 * Idle connections are closed after this long, below the 5 s Node's HTTP server keeps them by
 * default (and the minute of most proxies), so a request rarely meets a connection the receiver is
 * closing at that moment; when it does, it is sent once more on a new connection (below).
 */
const IDLE_CONNECTION_MS = 4_000;
const agents = new Map<string, http.Agent>();

function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}|${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = {
      keepAlive: true,
      timeout: IDLE_CONNECTION_MS,
      maxFreeSockets: 16,
      scheduling: 'lifo' as const,
    };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export function sendWebhook(
  target: string,
  request: { body: string; headers: Record<string, string> },
  options: SendOptions,
): Promise<SendOutcome> {
  const started = performance.now();
  let url: URL;
  try {
    url = parseTargetUrl(target, options.allowPrivate);
    const host = hostOf(url);
    // Literal IPs never reach the lookup hook, so they are checked here.
    if (!options.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
      throw new UrlNotAllowedError(`${host} is not a public address`);
    }
  } catch (error) {
    return Promise.resolve(failed(started, `url_not_allowed: ${(error as Error).message}`));
  }
  return post(url, request, options, started, true);
}

const elapsedSince = (started: number) => Math.round(performance.now() - started);

function failed(
  started: number,
  error: string,
  status: number | null = null,
  excerpt: string | null = null,
): SendOutcome {
  return { ok: false, status, latencyMs: elapsedSince(started), excerpt, error };
}

function post(
  url: URL,
  request: { body: string; headers: Record<string, string> },
  options: SendOptions,
  started: number,
  mayRetry: boolean,
): Promise<SendOutcome> {
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
      agent: agentFor(url.protocol, options.allowPrivate),
      ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
    });
    const timer = setTimeout(() => {
      finish(failed(started, `timeout: no complete response within ${options.timeoutMs} ms`));
      req.destroy();
    }, options.timeoutMs);

    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the receiver closed just as this request went out: nothing reached
      // it, so the request goes once more on a new connection, within the same deadline.
      if (mayRetry && req.reusedSocket && error.code === 'ECONNRESET' && !settled) {
        const left = options.timeoutMs - (performance.now() - started);
        if (left > 0) {
          settled = true;
          clearTimeout(timer);
          resolve(post(url, request, { ...options, timeoutMs: left }, started, false));
          return;
        }
      }
      const code = error instanceof UrlNotAllowedError ? 'url_not_allowed' : (error.code ?? 'request_failed');
      finish(failed(started, `${code}: ${error.message}`));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const excerpt = excerptOf(Buffer.concat(chunks));
        if (status >= 200 && status < 300) {
          finish({ ok: true, status, latencyMs: elapsedSince(started), excerpt, error: null });
        } else if (status >= 300 && status < 400) {
          const location = res.headers.location ? ` to ${res.headers.location}` : '';
          finish(
            failed(
              started,
              `redirect_refused: redirects are not followed (${status}${location})`,
              status,
              excerpt,
            ),
          );
        } else {
          finish(failed(started, `http_status: the endpoint answered ${status}`, status, excerpt));
        }
      };
      res.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
        // The rest of a large body is not needed: stop reading once the excerpt is full.
        if (size >= EXCERPT_BYTES) {
          done();
          res.destroy();
        }
      });
      res.on('end', done);
      res.on('error', (error) => finish(failed(started, `response_failed: ${error.message}`, status)));
    });
    req.end(request.body);
  });
}
