// Failed sign-ins are counted per email and per client address in PostgreSQL, so every instance of
// the service shares the counters. Only failures count; a success clears the email's count.
import { RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';
import { pgPoolWithoutSessionState } from '@/server/db/pool';
import { Errors } from '@/server/lib/errors';

const WINDOW_SECONDS = 15 * 60;
export const LOGIN_FAILURES_PER_EMAIL = 10;
export const LOGIN_FAILURES_PER_IP = 50;

interface Limiters {
  email: RateLimiterPostgres;
  ip: RateLimiterPostgres;
}

const holder = globalThis as unknown as { __switchboardLoginLimiters?: Limiters };

function limiters(): Limiters {
  if (!holder.__switchboardLoginLimiters) {
    const common = {
      storeClient: pgPoolWithoutSessionState(),
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      duration: WINDOW_SECONDS,
    };
    holder.__switchboardLoginLimiters = {
      email: new RateLimiterPostgres({
        ...common,
        keyPrefix: 'login_email',
        points: LOGIN_FAILURES_PER_EMAIL,
      }),
      ip: new RateLimiterPostgres({ ...common, keyPrefix: 'login_ip', points: LOGIN_FAILURES_PER_IP }),
    };
  }
  return holder.__switchboardLoginLimiters;
}

/** Throws 429 with Retry-After when either counter is exhausted. */
export async function assertLoginAllowed(email: string, ip: string): Promise<void> {
  const { email: byEmail, ip: byIp } = limiters();
  const [e, i] = await Promise.all([byEmail.get(email), byIp.get(ip)]);
  for (const [state, limit] of [
    [e, LOGIN_FAILURES_PER_EMAIL],
    [i, LOGIN_FAILURES_PER_IP],
  ] as [RateLimiterRes | null, number][]) {
    if (state && state.consumedPoints >= limit) throw Errors.rateLimited(state.msBeforeNext / 1000);
  }
}

export async function recordLoginFailure(email: string, ip: string): Promise<void> {
  const { email: byEmail, ip: byIp } = limiters();
  // consume() rejects once the budget is spent; the counter is still incremented, which is all we need.
  await Promise.allSettled([byEmail.consume(email), byIp.consume(ip)]);
}

export async function clearLoginFailures(email: string): Promise<void> {
  await limiters().email.delete(email);
}
