// Security finding 4 (issue 21): the login page followed `?callbackUrl=/.//evil.com` to evil.com.
import { describe, expect, it } from 'vitest';
import { authOptions } from './auth-options';
import { safeCallbackPath } from './callback-url';

const ORIGIN = 'http://localhost:3000';

describe('security finding 4: open redirect after sign-in', () => {
  it.each([
    // Another site, spelled as a browser would still read it.
    '//evil.com',
    '///evil.com',
    '/\\evil.com',
    '\\\\evil.com',
    '\\/evil.com',
    '/.//evil.com',
    '/./\\evil.com',
    '/..//evil.com',
    '/%2e//evil.com',
    '/%2e%2e//evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '/\r\n/evil.com',
    ' //evil.com',
    'https://evil.com',
    'https:evil.com',
    'http://localhost:3000@evil.com/',
    'http://user:pass@localhost:3000/bookings',
    'http://localhost:3001/bookings',
    'https://localhost:3000/bookings',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    // Encoded variants that decode to one of those.
    '/%2F%2Fevil.com',
    '/%2f/evil.com',
    '%2F%2Fevil.com',
    '/%5Cevil.com',
    '/%5cevil.com',
    '/%252F%252Fevil.com',
    '/%25252F%25252Fevil.com',
    '/%09/evil.com',
    '/%0A/evil.com',
    '/bookings%5C..%5C..%5Cevil.com',
    // A backslash or a control character anywhere.
    '/bookings\\evil.com',
    '/bookings?next=\\\\evil.com',
    '/book\u0000ings',
    // Malformed, empty, missing, absurd.
    '/%E0%A4%A',
    '',
    null,
    undefined,
    42,
    `/${'a'.repeat(3000)}`,
  ])('%j goes home (/)', (hostile) => {
    expect(safeCallbackPath(hostile, ORIGIN)).toBe('/');
  });

  it.each([
    ['/bookings', '/bookings'],
    ['/settings/webhooks?view=failed', '/settings/webhooks?view=failed'],
    ['/events?type=booking.*#evt_1', '/events?type=booking.*#evt_1'],
    ['/conversations/cnv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q', '/conversations/cnv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q'],
    ['/bookings/../settings/team', '/settings/team'],
    ['/bookings?q=a%20b', '/bookings?q=a%20b'],
    [`${ORIGIN}/settings/api-keys`, '/settings/api-keys'],
    ['/', '/'],
  ])('%j is a path of this site: %j', (safe, path) => {
    expect(safeCallbackPath(safe, ORIGIN)).toBe(path);
  });

  it('takes no absolute URL without an origin to compare with', () => {
    expect(safeCallbackPath(`${ORIGIN}/bookings`)).toBe('/');
    expect(safeCallbackPath('/bookings')).toBe('/bookings');
  });

  it("is next-auth's redirect callback too (after sign-in and sign-out)", async () => {
    const redirect = authOptions().callbacks?.redirect;
    if (!redirect) throw new Error('authOptions has no redirect callback');
    expect(await redirect({ url: '/.//evil.com', baseUrl: ORIGIN })).toBe(`${ORIGIN}/`);
    expect(await redirect({ url: 'https://evil.com/x', baseUrl: ORIGIN })).toBe(`${ORIGIN}/`);
    expect(await redirect({ url: '/login', baseUrl: ORIGIN })).toBe(`${ORIGIN}/login`);
    expect(await redirect({ url: `${ORIGIN}/login?callbackUrl=%2Fbookings`, baseUrl: ORIGIN })).toBe(
      `${ORIGIN}/login?callbackUrl=%2Fbookings`,
    );
  });
});
