import { describe, expect, it } from 'vitest';
import { clientAddressOf, resolveClientAddress } from './client-address';

describe('resolveClientAddress', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress('6.6.6.6', '203.0.113.9', 0)).toBe('203.0.113.9');
    expect(resolveClientAddress(['1.1.1.1, 2.2.2.2', '3.3.3.3'], '203.0.113.9', 0)).toBe('203.0.113.9');
    expect(resolveClientAddress(undefined, '::ffff:127.0.0.1', 0)).toBe('127.0.0.1');
  });

  it('behind trusted proxies, is the address the nearest one recorded; client-written entries are ignored', () => {
    // client wrote 6.6.6.6; the one trusted proxy (the peer, 10.0.0.2) appended the client it saw.
    expect(resolveClientAddress('6.6.6.6, 198.51.100.7', '10.0.0.2', 1)).toBe('198.51.100.7');
    expect(resolveClientAddress('6.6.6.6, 198.51.100.7, 10.0.0.3', '10.0.0.2', 2)).toBe('198.51.100.7');
    // fewer entries than trusted hops: the leftmost there is.
    expect(resolveClientAddress('198.51.100.7', '10.0.0.2', 5)).toBe('198.51.100.7');
  });

  it('is read back by the app as the first X-Forwarded-For entry', () => {
    expect(clientAddressOf('198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddressOf(undefined)).toBe('unknown');
  });
});
