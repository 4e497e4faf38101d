import { describe, expect, it } from 'vitest';
import { describeFindings, scanLines } from './log-scan';

// The scanner behind the secret check of the integration logs (test/support/global-setup.ts): it must find
// each kind of secret, leave ordinary and redacted lines alone, and never repeat a secret.
const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: 1, service: 'switchboard', ...fields });

const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfMSIsInRpZCI6InQiLCJyb2xlIjoiYWRtaW4ifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

describe('log scan', () => {
  it('finds every kind of secret, by file and line', () => {
    const lines = [
      line({ msg: 'request', path: '/api/v1/bookings', status: 200 }),
      line({ msg: 'oops', key: 'sk_live_abcdefABCDEF_0123456789abcdefghijABCDEFGHIJ0123456789' }),
      line({ msg: 'oops', body: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
      line({ msg: 'oops', token: JWT }),
      line({ msg: 'oops', refresh: 'rt_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdefg' }),
      line({ msg: 'oops', headers: { authorization: 'sk_whatever' } }),
      line({ msg: 'oops', header: 'Bearer abcdefgh12345678' }),
      line({ msg: 'oops', user: { password: 'hunter22' } }),
      line({ msg: 'oops', access_token: 'tok' }),
      line({ msg: 'oops', graph: 'EAAGm0PX4ZCpsBAJk1234567890abcd' }),
      line({ msg: 'oops', note: 'correct horse battery staple' }),
      line({ msg: 'oops', stripe: 'sk_test_51PqR5sTuVwXyZ0123456789abcd' }),
    ];
    const findings = scanLines('bookings.t_1.log', lines, [
      { kind: 'password', value: 'correct horse battery staple' },
      { kind: 'channel access token', value: 'tok' }, // too short to search for as a literal
    ]);
    expect(findings.map((f) => [f.line, f.kind])).toEqual([
      [2, 'API key (sk_live_…)'],
      [3, 'webhook secret (whsec_…)'],
      [4, 'access token (JWT)'],
      [5, 'refresh token (rt_…)'],
      [6, 'Authorization value'],
      [7, 'Authorization value'],
      [8, 'password'],
      [9, 'channel access token'],
      [10, 'channel access token'],
      [11, 'password (a value the tests used)'],
      [12, 'Stripe secret key'],
    ]);
    expect(findings.every((f) => f.file === 'bookings.t_1.log')).toBe(true);
    const report = describeFindings(findings);
    expect(report).toContain('bookings.t_1.log:2: API key (sk_live_…)');
    for (const secret of ['0123456789abcdefghij', 'MfKQ9r8GKY', JWT, 'hunter22', 'correct horse']) {
      expect(report).not.toContain(secret);
    }
  });

  it('leaves redacted fields, key prefixes and ordinary lines alone', () => {
    const lines = [
      line({ msg: 'request', method: 'POST', path: '/api/v1/auth/login', status: 200, ms: 12.5 }),
      line({ headers: { authorization: '[redacted]' }, password: '[redacted]', access_token: '[redacted]' }),
      line({ msg: 'api key used', prefix: 'sk_live_abcdefABCDEF' }),
      line({
        msg: 'webhook attempt',
        delivery_id: 'dlv_01J',
        error: 'http_status: the endpoint answered 500',
      }),
    ];
    expect(scanLines('x.log', lines, [{ kind: 'password', value: 'correct horse battery staple' }])).toEqual(
      [],
    );
  });
});
