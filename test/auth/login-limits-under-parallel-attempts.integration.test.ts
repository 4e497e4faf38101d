// The password-attempt budgets (server/auth/rate-limits.ts) hold under parallel attempts on every path
// that checks a password (REST login, dashboard sign-in, an existing user's invitation accept), and
// an attacker at one address cannot lock the real user out at another below the email-wide threshold.
import type { CredentialsConfig } from 'next-auth/providers/credentials';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPasswordLogin } from '@/server/auth/sessions';
import { resetSettingsCache } from '@/server/config/settings';
import { AppError } from '@/server/lib/errors';
import { authOptions } from '@/server/trpc/auth-options';
import { freshAddress, outcome, publicCaller, tally, tokenOf } from '../support/account-fixtures';
import { apiSuite } from '../support/harness';
import { createTestUser } from '../support/helpers';

beforeAll(() => {
  Object.assign(process.env, { API_RATE_LIMIT_PER_SECOND: '0' });
  resetSettingsCache();
});
afterAll(() => {
  delete process.env.API_RATE_LIMIT_PER_SECOND;
  resetSettingsCache();
});
const suite = apiSuite({ tenant: false });

function signIn(email: string, password: string, tenantId?: string) {
  return suite.api('POST', '/auth/login', {
    body: { email, password },
    ...(tenantId ? { headers: { 'X-Tenant-ID': tenantId } } : {}),
  });
}

describe('security finding 3: login limit bypass and lockout', () => {
  // The budgets (server/auth/rate-limits.ts): 10 attempts per email and client address, 100 per
  // email from all addresses together, 50 per address, in 15 minutes.
  const PER_EMAIL_AND_ADDRESS = 10;
  const PER_EMAIL = 100;

  it('N parallel wrong passwords test at most the limit (REST POST /auth/login)', async () => {
    const t = await suite.newTenant('parallel-rest');
    const { email, password } = await createTestUser(t.tenantId, 'agent');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(email, `wrong password ${i}`)),
    );
    const statuses = tally(answers.map((a) => String(a.status)));
    expect(statuses).toEqual({ '401': PER_EMAIL_AND_ADDRESS, '429': 30 - PER_EMAIL_AND_ADDRESS });
    const limited = answers.find((a) => a.status === 429);
    expect(limited?.body.code).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    // The right password from the same address waits too: the budget is spent.
    expect((await signIn(email, password)).status).toBe(429);
  });

  it('N parallel wrong passwords test at most the limit (dashboard sign-in, next-auth Credentials)', async () => {
    const t = await suite.newTenant('parallel-dashboard');
    const { email } = await createTestUser(t.tenantId, 'agent');
    const provider = authOptions().providers[0] as unknown as { options: CredentialsConfig };
    const address = freshAddress();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        outcome(
          (async () => {
            const user = await provider.options.authorize(
              { email, password: `wrong password ${i}` },
              { headers: { 'x-forwarded-for': address }, body: {}, query: {}, method: 'POST' },
            );
            if (user === null) throw new AppError('invalid_credentials', 'refused');
          })(),
        ),
      ),
    );
    // next-auth reports a spent budget as an Error whose message the login page explains.
    const counts = tally(results.map((r) => (r === 'ok' || r === 'invalid_credentials' ? r : 'limited')));
    expect(counts).toEqual({
      invalid_credentials: PER_EMAIL_AND_ADDRESS,
      limited: 30 - PER_EMAIL_AND_ADDRESS,
    });
  });

  it("N parallel wrong passwords test at most the limit (an existing user's invitation accept)", async () => {
    const home = await suite.newTenant('parallel-invite-home');
    const t = await suite.newTenant('parallel-invite');
    const person = await createTestUser(home.tenantId, 'agent');
    const invite = await t.admin('POST', '/invitations', { body: { email: person.email, role: 'agent' } });
    const caller = publicCaller(freshAddress());
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        outcome(caller.links.acceptInvitation({ token: tokenOf(invite.body.url), password: `wrong ${i}` })),
      ),
    );
    expect(tally(results)).toEqual({
      UNAUTHORIZED: PER_EMAIL_AND_ADDRESS,
      TOO_MANY_REQUESTS: 30 - PER_EMAIL_AND_ADDRESS,
    });
  });

  it('an attacker at one address cannot lock the real user out at another, below the email-wide threshold', async () => {
    const t = await suite.newTenant('lockout');
    const person = await createTestUser(t.tenantId, 'admin');
    const attacker = freshAddress();
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: 10 }, () =>
          outcome(verifyPasswordLogin({ email: person.email, password: 'a guess', ip: attacker })),
        ),
      );
    }
    expect(
      await outcome(verifyPasswordLogin({ email: person.email, password: person.password, ip: attacker })),
    ).toBe('rate_limited');
    const home = freshAddress();
    expect(
      await outcome(verifyPasswordLogin({ email: person.email, password: person.password, ip: home })),
    ).toBe('ok');
    // A wrong password of the real user at their own address does not hit the attacker's budget either.
    expect(await outcome(verifyPasswordLogin({ email: person.email, password: 'typo', ip: home }))).toBe(
      'invalid_credentials',
    );
  });

  it('past the email-wide threshold (many addresses), the email waits whatever the address', async () => {
    const t = await suite.newTenant('email-wide');
    const person = await createTestUser(t.tenantId, 'agent');
    const addresses = Array.from(
      { length: PER_EMAIL / PER_EMAIL_AND_ADDRESS },
      (_, i) => `203.0.113.${i + 1}`,
    );
    for (const address of addresses) {
      const results = await Promise.all(
        Array.from({ length: PER_EMAIL_AND_ADDRESS }, () =>
          outcome(verifyPasswordLogin({ email: person.email, password: 'a guess', ip: address })),
        ),
      );
      expect(tally(results)).toEqual({ invalid_credentials: PER_EMAIL_AND_ADDRESS });
    }
    expect(
      await outcome(
        verifyPasswordLogin({ email: person.email, password: person.password, ip: '192.0.2.77' }),
      ),
    ).toBe('rate_limited');
  });

  it('a success does not count against the budgets', async () => {
    const t = await suite.newTenant('success-free');
    const person = await createTestUser(t.tenantId, 'agent');
    const address = freshAddress();
    for (let i = 0; i < PER_EMAIL_AND_ADDRESS + 5; i++) {
      expect(
        await outcome(verifyPasswordLogin({ email: person.email, password: person.password, ip: address })),
      ).toBe('ok');
    }
    expect(
      await outcome(verifyPasswordLogin({ email: person.email, password: 'one typo', ip: address })),
    ).toBe('invalid_credentials');
  });

  it('an email of any allowed length is counted (its counter key fits the column)', async () => {
    const email = `${'x'.repeat(60)}@${'sub.'.repeat(60)}example.test`;
    expect(email.length).toBeGreaterThan(255);
    const ip = freshAddress();
    for (let i = 0; i < PER_EMAIL_AND_ADDRESS; i++)
      expect(await outcome(verifyPasswordLogin({ email, password: `guess ${i}`, ip }))).toBe(
        'invalid_credentials',
      );
    expect(await outcome(verifyPasswordLogin({ email, password: 'one more guess', ip }))).toBe(
      'rate_limited',
    );
  });
});
