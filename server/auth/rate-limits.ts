// Password attempts are limited in PostgreSQL, so every instance of the service shares the counters.
// Each attempt takes its point *before* the password is checked, in one atomic upsert per counter: N
// attempts sent at once can never test more than the budget allows (issue 21, finding 3). A success
// gives its points back, so only failures add up. Three budgets per 15 minutes:
//
// - per email and client address (10): the lockout an attacker can cause stays at their own address;
// - per email from all addresses together (100): a guesser spread over many addresses still stops,
//   and only such a one can make the real user wait;
// - per client address, whatever the email (50): one address cannot spray many accounts.
//
// Counter keys are SHA-256 hashes (no email sits in the table, and any email length fits the column).
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { pgPoolWithoutSessionState } from '@/server/db/pool';
import { Errors } from '@/server/lib/errors';
import { sha256Hex } from '@/server/security/hashing';

const WINDOW_SECONDS = 15 * 60;
export const LOGIN_ATTEMPTS_PER_EMAIL_AND_ADDRESS = 10;
export const LOGIN_ATTEMPTS_PER_EMAIL = 100;
export const LOGIN_ATTEMPTS_PER_ADDRESS = 50;

interface Limiters {
  emailAtAddress: RateLimiterPostgres;
  email: RateLimiterPostgres;
  address: RateLimiterPostgres;
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
      emailAtAddress: new RateLimiterPostgres({
        ...common,
        keyPrefix: 'login_email_address',
        points: LOGIN_ATTEMPTS_PER_EMAIL_AND_ADDRESS,
      }),
      email: new RateLimiterPostgres({
        ...common,
        keyPrefix: 'login_email',
        points: LOGIN_ATTEMPTS_PER_EMAIL,
      }),
      address: new RateLimiterPostgres({
        ...common,
        keyPrefix: 'login_address',
        points: LOGIN_ATTEMPTS_PER_ADDRESS,
      }),
    };
  }
  return holder.__switchboardLoginLimiters;
}

/** Takes a point; a spent budget throws 429 with Retry-After (a store failure propagates as it is). */
async function take(limiter: RateLimiterPostgres, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw Errors.rateLimited(Math.ceil(error.msBeforeNext / 1000));
    throw error;
  }
}

export interface LoginAttempt {
  /** The password was right: the attempt's points are given back and its address's lockout lifted. */
  succeeded(): Promise<void>;
}

/**
 * Takes one attempt from each budget before the password is checked, or throws 429. The budgets are
 * taken in order and the first one spent stops the rest: attempts refused at the attacker's own
 * address do not count toward the email-wide budget, so they cannot make the real user wait.
 */
export async function takeLoginAttempt(email: string, address: string): Promise<LoginAttempt> {
  const { emailAtAddress, email: byEmail, address: byAddress } = limiters();
  const keys = {
    emailAtAddress: sha256Hex(`${email}\n${address}`),
    email: sha256Hex(email),
    address: sha256Hex(address),
  };
  await take(emailAtAddress, keys.emailAtAddress);
  await take(byAddress, keys.address);
  await take(byEmail, keys.email);
  return {
    async succeeded() {
      await Promise.all([
        emailAtAddress.delete(keys.emailAtAddress),
        byEmail.reward(keys.email, 1),
        byAddress.reward(keys.address, 1),
      ]);
    },
  };
}
