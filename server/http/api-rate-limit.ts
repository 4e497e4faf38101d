// Requests per second per credential (API key, or user within a tenant), like Stripe's default of
// 100/s, and per tenant (all of its credentials together, API_RATE_LIMIT_PER_TENANT_PER_SECOND,
// 300/s), so many keys cannot multiply a tenant's share of the service; either setting 0 disables
// its limit. Counted in PostgreSQL by default, so every instance (serverless functions included)
// shares one count; API_RATE_LIMIT_STORE=memory counts per process instead (one server).
//
// Without a database write per request: an instance leases its requests from the shared count in
// blocks (one upsert takes a tenth of the limit, at least 1 and at most 100, for the current
// one-second window) and spends them from memory. The shared count is never exceeded: a lease
// that would pass the limit is granted only what is left. The price is the other way round: leased
// requests an instance does not spend before its window ends are lost, so with N instances a
// client can be refused up to (N − 1) × one lease early in a window (docs/operations.md, "Rate limits
// and credential checks on the request path"). Once a
// credential or a tenant is over its limit an instance refuses it from memory until the window
// ends, without asking the database again.
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '@/server/auth/principal';
import { settings } from '@/server/config/settings';
import { pgPoolWithoutSessionState } from '@/server/db/pool';
import { Errors } from '@/server/lib/errors';

type Limiter = RateLimiterMemory | RateLimiterPostgres;
type Scope = 'credential' | 'tenant';

const holder = globalThis as unknown as {
  __switchboardApiLimiters?: Partial<Record<Scope, { config: string; limiter: Limiter }>>;
};

function limiter(scope: Scope, points: number, store: 'postgres' | 'memory'): Limiter {
  holder.__switchboardApiLimiters ??= {};
  const limiters = holder.__switchboardApiLimiters;
  const config = `${store}:${points}`;
  if (limiters[scope]?.config !== config) {
    leases.clear(); // leased under the old limit
    // Counts are kept per limit: a count holds whole leases taken under its limit, which mean
    // nothing under another, so a changed setting starts from a fresh window (one second).
    const common = {
      points,
      duration: 1,
      keyPrefix: `${scope === 'credential' ? 'api' : 'api_tenant'}_${points}`,
    };
    limiters[scope] = {
      config,
      limiter:
        store === 'memory'
          ? new RateLimiterMemory(common)
          : new RateLimiterPostgres({
              ...common,
              storeClient: pgPoolWithoutSessionState(),
              storeType: 'pool',
              tableName: 'rate_limits',
              tableCreated: true,
              inMemoryBlockOnConsumed: points,
            }),
    };
  }
  return (limiters[scope] as { limiter: Limiter }).limiter;
}

/** Requests leased at once: a tenth of the limit, at least 1 and at most 100. */
export function leaseSize(points: number): number {
  return Math.min(100, Math.max(1, Math.floor(points / 10)));
}

interface Lease {
  /** Leased requests not yet spent. */
  left: number;
  /** When the window the lease belongs to ends (ms since the epoch). */
  until: number;
  /** The shared count is full: nothing more is leased in this window. */
  full: boolean;
}

const leases = new Map<string, Lease>();
const leasing = new Map<string, Promise<void>>();
const MAX_LEASES = 50_000;

async function lease(scope: Scope, limiter: Limiter, points: number, key: string, size: number) {
  if (leases.size >= MAX_LEASES) {
    const now = Date.now();
    for (const [k, l] of leases) if (l.until <= now) leases.delete(k);
    if (leases.size >= MAX_LEASES) leases.clear();
  }
  try {
    const granted = await limiter.consume(key, size);
    leases.set(`${scope}:${key}`, { left: size, until: Date.now() + granted.msBeforeNext, full: false });
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    // Counted but over the limit: what was left before this lease is still ours. An in-memory block
    // (the limiter already knows the window is full) reports no consumed points: nothing is left.
    const before = rejection.consumedPoints - size;
    const left = rejection.consumedPoints > 0 ? Math.max(0, Math.min(size, points - before)) : 0;
    leases.set(`${scope}:${key}`, { left, until: Date.now() + rejection.msBeforeNext, full: true });
  }
}

async function consume(scope: Scope, points: number, key: string, requests: number): Promise<void> {
  if (points === 0 || requests < 1) return;
  const store = settings().API_RATE_LIMIT_STORE;
  const limit = limiter(scope, points, store);
  if (store === 'memory') {
    try {
      await limit.consume(key, requests);
      return;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw Errors.rateLimited(rejection.msBeforeNext / 1000);
      throw rejection;
    }
  }
  const id = `${scope}:${key}`;
  for (;;) {
    const now = Date.now();
    const current = leases.get(id);
    if (current && current.until > now) {
      if (current.left >= requests) {
        current.left -= requests;
        return;
      }
      if (current.full) throw Errors.rateLimited((current.until - now) / 1000);
    }
    // One lease at a time per key and instance: concurrent requests wait for it and spend from it.
    const pending = leasing.get(id);
    if (pending) {
      await pending;
      continue;
    }
    const next = lease(scope, limit, points, key, Math.max(requests, leaseSize(points))).finally(() =>
      leasing.delete(id),
    );
    leasing.set(id, next);
    await next;
  }
}

/** Forgets this instance's leases (tests that change the limits between requests). */
export function resetApiRateLimitLeases(): void {
  leases.clear();
}

/**
 * Counts `requests` (default 1) against the credential's and the tenant's limits, or throws 429
 * rate_limited (with Retry-After). A JSON-RPC batch on the MCP endpoint counts each of its messages,
 * so batching does not multiply the limit.
 */
export async function assertWithinApiRateLimit(principal: Principal, requests = 1): Promise<void> {
  const { API_RATE_LIMIT_PER_SECOND: perCredential, API_RATE_LIMIT_PER_TENANT_PER_SECOND: perTenant } =
    settings();
  const credential =
    principal.kind === 'api_key'
      ? principal.keyId
      : principal.kind === 'assistant_session'
        ? principal.sessionId
        : `${principal.tenantId}:${principal.userId}`;
  // The credential's own limit first: a request it refuses does not count against the tenant.
  await consume('credential', perCredential, credential, requests);
  await consume('tenant', perTenant, principal.tenantId, requests);
}
