import { describe, expect, it } from 'vitest';
import { stripeClient, stripeEndpoint } from './client';

describe('the Stripe client', () => {
  it("reaches Stripe's API by default and the origin STRIPE_API_URL names otherwise", () => {
    expect(stripeEndpoint('https://api.stripe.com')).toEqual({
      host: 'api.stripe.com',
      port: 443,
      protocol: 'https',
    });
    expect(stripeEndpoint('http://127.0.0.1:12111')).toEqual({
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
    expect(stripeEndpoint('http://stripe.internal')).toEqual({
      host: 'stripe.internal',
      port: 80,
      protocol: 'http',
    });
  });

  it('pins the API version, a 10 s timeout and 2 retries', () => {
    const client = stripeClient('sk_test_unitTestKey00000000');
    expect(client.getApiField('version')).toBe('2026-10-28.endive');
    expect(client.getApiField('timeout')).toBe(10_000);
    expect(client.getMaxNetworkRetries()).toBe(2);
    expect(client.getApiField('host')).toBe('api.stripe.com');
  });
});
