// Requests per second per credential (API key, or user within a tenant), like Stripe's default of
// 100/s. Counted in each process's memory: cheap on the hot path, and N instances allow up to N
// times the rate, which is acceptable for abuse protection. API_RATE_LIMIT_PER_SECOND=0 disables
// it.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '@/server/auth/principal';
import { settings } from '@/server/config/settings';
import { Errors } from '@/server/lib/errors';

const holder = globalThis as unknown as {
  __switchboardApiLimiter?: { points: number; limiter: RateLimiterMemory };
};

export async function assertWithinApiRateLimit(principal: Principal): Promise<void> {
  const points = settings().API_RATE_LIMIT_PER_SECOND;
  if (points === 0) return;
  if (holder.__switchboardApiLimiter?.points !== points) {
    holder.__switchboardApiLimiter = {
      points,
      limiter: new RateLimiterMemory({ points, duration: 1, keyPrefix: 'api' }),
    };
  }
  const key = principal.kind === 'api_key' ? principal.keyId : `${principal.tenantId}:${principal.userId}`;
  try {
    await holder.__switchboardApiLimiter.limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw Errors.rateLimited(rejection.msBeforeNext / 1000);
    throw rejection;
  }
}
