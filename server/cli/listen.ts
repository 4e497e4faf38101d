// `npm run cli -- listen --forward-to <url> [--events <filters>]` (docs/decisions.md "Integrator tools"): forwards the
// tenant's new events to a local URL, signed as deliveries are (docs/architecture.md "Webhook delivery") with a secret made at start, so
// a developer can run their receiver on localhost without exposing it: the CLI polls
// GET /api/v1/events?after=<id> with an API key; nothing connects to the developer's machine.
//
// Decisions (the contract is silent): the poll runs every 500 ms; events are forwarded one at a
// time in the order they were recorded, once each (attempt 1, no retries: a failure is printed);
// the listener looks back LOOKBACK_MS behind the newest event it saw, so an event that becomes
// visible a moment after a later one (concurrent transactions) is still forwarded, deduplicated by
// id; webhook.test is never forwarded (it belongs to one endpoint).

import { isSubscribable, subscriptionMatches } from '@/server/client-safe/event-catalog';
import { sendWebhook } from '@/server/webhooks/attempt/send';
import { signAttempt } from '@/server/webhooks/attempt/sign';
import { generateWebhookSecret } from '@/server/webhooks/secrets';

export const POLL_MS = 500;
export const LOOKBACK_MS = 5000;
const PAGE = 100;
/** Lower than every event id: "after the beginning". */
const BEGINNING = `evt_${'0'.repeat(26)}`;

export interface ListenOptions {
  apiUrl: string;
  apiKey: string;
  tenantId: string;
  forwardTo: string;
  filters: string[];
  signal: AbortSignal;
  out: (line: string) => void;
  err: (line: string) => void;
  timeoutMs?: number;
}

interface Envelope {
  id: string;
  type: string;
  created_at: string;
}

export class ListenError extends Error {}

/** The filters as given (`*` when none), or the message saying which one is not a subscription. */
export function parseFilters(value: string | undefined): string[] | string {
  const filters = (value ?? '*')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (filters.length === 0) return '--events needs at least one filter';
  const bad = filters.find((f) => !isSubscribable(f));
  return bad ? `--events: "${bad}" is not *, conversation.*, booking.*, payment.* or an event type` : filters;
}

export async function listen(options: ListenOptions): Promise<void> {
  const base = `${options.apiUrl.replace(/\/+$/, '')}/api/v1`;
  const get = async (path: string): Promise<{ data: Envelope[] }> => {
    const response = await fetch(`${base}${path}`, {
      headers: { Authorization: `Bearer ${options.apiKey}`, 'X-Tenant-ID': options.tenantId },
      signal: options.signal,
    });
    const text = await response.text();
    if (response.status === 401 || response.status === 403 || response.status === 400) {
      throw new ListenError(`${response.status} from ${base}/events: ${problemText(text)}`);
    }
    if (!response.ok) throw new Error(`${response.status} from ${base}/events: ${problemText(text)}`);
    return JSON.parse(text) as { data: Envelope[] };
  };

  // The newest event now marks the start: only events recorded after it are forwarded.
  const start = await get('/events?limit=1');
  let cursor = start.data[0]?.id ?? BEGINNING;
  const secret = generateWebhookSecret();
  options.out(`Ready! Your webhook signing secret is ${secret}`);
  options.out(`Forwarding ${options.filters.join(', ')} events to ${options.forwardTo} (Ctrl-C stops)`);

  const seen = new Map<string, number>();
  let failing = false;
  while (!options.signal.aborted) {
    try {
      let after = cursor;
      for (;;) {
        const page = await get(`/events?after=${after}&limit=${PAGE}`);
        for (const event of page.data) {
          if (seen.has(event.id)) continue;
          seen.set(event.id, Date.parse(event.created_at));
          if (event.type !== 'webhook.test' && subscriptionMatches(options.filters, event.type)) {
            await forward(event, secret, options);
          }
        }
        if (page.data.length < PAGE) break;
        after = page.data[page.data.length - 1].id;
      }
      cursor = advance(cursor, seen);
      if (failing) options.err('The API answers again.');
      failing = false;
    } catch (error) {
      if (options.signal.aborted) break;
      if (error instanceof ListenError) throw error;
      if (!failing) options.err(`Cannot poll the API (${(error as Error).message}); retrying…`);
      failing = true;
    }
    await sleep(POLL_MS, options.signal);
  }
}

/** Moves the cursor to the newest seen event older than LOOKBACK_MS before the newest one, and forgets older ones. */
function advance(cursor: string, seen: Map<string, number>): string {
  if (seen.size === 0) return cursor;
  const newest = Math.max(...seen.values());
  let next = cursor;
  for (const [id, at] of seen) if (at < newest - LOOKBACK_MS && id > next) next = id;
  for (const id of seen.keys()) if (id <= next) seen.delete(id);
  return next;
}

async function forward(event: Envelope, secret: string, options: ListenOptions) {
  // The envelope as the API listed it: keys in contract order, exactly what a delivery carries.
  const body = JSON.stringify(event);
  const request = signAttempt({
    eventId: event.id,
    eventType: event.type,
    body,
    secrets: [secret],
    attempt: 1,
  });
  const outcome = await sendWebhook(options.forwardTo, request, {
    timeoutMs: options.timeoutMs ?? 10_000,
    // The target is the developer's own machine: loopback and http are the point.
    allowPrivate: true,
  });
  const result = outcome.status === null ? (outcome.error ?? 'no answer') : String(outcome.status);
  const line = `${new Date().toISOString()}  ${event.type}  ${event.id}  → ${result} (${outcome.latencyMs} ms)`;
  if (outcome.ok) options.out(line);
  else options.err(line);
}

function problemText(text: string): string {
  try {
    const problem = JSON.parse(text) as { code?: string; detail?: string };
    return [problem.code, problem.detail].filter(Boolean).join(': ') || text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
