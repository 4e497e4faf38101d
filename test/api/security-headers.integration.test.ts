// The security headers every REST answer carries: successes, errors and the public OpenAPI document.
import { describe, expect, it } from 'vitest';
import { apiSuite } from '../support/harness';
import { client } from '../support/helpers';

const suite = apiSuite();
const a = suite.tenant;

describe('security headers (finding 10)', () => {
  it('sends nosniff, a referrer policy and no-framing on every REST answer', async () => {
    for (const res of [
      await a.admin('GET', '/bookings'),
      await a.admin('GET', '/nope'),
      await client(suite.url)('GET', '/openapi.json'),
    ]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    }
  });
});
