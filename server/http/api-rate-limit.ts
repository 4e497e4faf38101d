// Requests per second per credential (API key, or user within a tenant), like Stripe's default of
// 100/s; API_RATE_LIMIT_PER_SECOND=0 disables it. Counted in PostgreSQL by default, so every
// instance (serverless functions included) shares one count; API_RATE_LIMIT_STORE=memory counts per
// process instead (one server, no database write per request). Once a credential is over its limit
// a process refuses it from memory until the window ends, without asking the database again.
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '@/server/auth/principal';
import { settings } from '@/server/config/settings';
import { pgPoolWithoutSessionState } from '@/server/db/pool';
import { Errors } from '@/server/lib/errors';

type Limiter = RateLimiterMemory | RateLimiterPostgres;

const holder = globalThis as unknown as {
  __switchboardApiLimiter?: { config: string; limiter: Limiter };
};

function limiter(points: number, store: 'postgres' | 'memory'): Limiter {
  const config = `${store}:${points}`;
  if (holder.__switchboardApiLimiter?.config !== config) {
    const common = { points, duration: 1, keyPrefix: 'api' };
    holder.__switchboardApiLimiter = {
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
  return holder.__switchboardApiLimiter.limiter;
}

/**
 * Counts `requests` (default 1) against the credential's limit, or throws 429. A JSON-RPC batch on the
 * MCP endpoint counts each of its messages, so batching does not multiply the limit.
 */
export async function assertWithinApiRateLimit(principal: Principal, requests = 1): Promise<void> {
  const { API_RATE_LIMIT_PER_SECOND: points, API_RATE_LIMIT_STORE: store } = settings();
  if (points === 0 || requests < 1) return;
  const key = principal.kind === 'api_key' ? principal.keyId : `${principal.tenantId}:${principal.userId}`;
  try {
    await limiter(points, store).consume(key, requests);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw Errors.rateLimited(rejection.msBeforeNext / 1000);
    throw rejection;
  }
}
