// Requests per second per credential (API key, or user within a tenant), like Stripe's default of
// 100/s, and per tenant (all of its credentials together, API_RATE_LIMIT_PER_TENANT_PER_SECOND,
// 300/s), so many keys cannot multiply a tenant's share of the service; either setting 0 disables
// its limit. Counted in PostgreSQL by default, so every instance (serverless functions included)
// shares one count; API_RATE_LIMIT_STORE=memory counts per process instead (one server, no database
// write per request). Once a credential or a tenant is over its limit a process refuses it from
// memory until the window ends, without asking the database again.
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
    // The credential's counts keep the prefix they always had; the tenant's have their own.
    const common = { points, duration: 1, keyPrefix: scope === 'credential' ? 'api' : 'api_tenant' };
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

async function consume(scope: Scope, points: number, key: string, requests: number): Promise<void> {
  if (points === 0 || requests < 1) return;
  try {
    await limiter(scope, points, settings().API_RATE_LIMIT_STORE).consume(key, requests);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw Errors.rateLimited(rejection.msBeforeNext / 1000);
    throw rejection;
  }
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
    principal.kind === 'api_key' ? principal.keyId : `${principal.tenantId}:${principal.userId}`;
  // The credential's own limit first: a request it refuses does not count against the tenant.
  await consume('credential', perCredential, credential, requests);
  await consume('tenant', perTenant, principal.tenantId, requests);
}
