import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { sendWebhook } from '@/server/webhooks/attempt/send';
import { assertPublicTarget, isPublicAddress, UrlNotAllowedError } from './url-guard';

// The production setting: private targets refused.
beforeAll(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'false';
  resetSettingsCache();
});
afterAll(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
  resetSettingsCache();
});

const blocked = [
  ['IPv4 loopback', '127.0.0.1'],
  ['IPv4 loopback, other', '127.8.9.10'],
  ['private 10/8', '10.1.2.3'],
  ['private 172.16/12', '172.20.0.1'],
  ['private 192.168/16', '192.168.1.1'],
  ['link-local', '169.254.10.10'],
  ['cloud metadata', '169.254.169.254'],
  ['CGNAT', '100.64.0.1'],
  ['unspecified', '0.0.0.0'],
  ['IPv6 loopback', '::1'],
  ['IPv6 unspecified', '::'],
  ['IPv6 link-local', 'fe80::1'],
  ['IPv6 unique-local', 'fd00::1'],
  ['AWS IPv6 metadata (unique-local)', 'fd00:ec2::254'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
  ['multicast', '224.0.0.1'],
  // Every IPv6 form of a non-public IPv4 address (docs/decisions.md "Security").
  ['IPv4-compatible loopback', '::127.0.0.1'],
  ['IPv4-compatible metadata', '::169.254.169.254'],
  ['IPv4-compatible private', '::10.0.0.1'],
  ['IPv4-translated loopback', '::ffff:0:127.0.0.1'],
  ['6to4 of loopback', '2002:7f00:1::'],
  ['6to4 of metadata', '2002:a9fe:a9fe::1'],
  ['NAT64 of loopback', '64:ff9b::127.0.0.1'],
  ['NAT64 local-use of private', '64:ff9b:1::10.0.0.1'],
  ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
];

describe('isPublicAddress', () => {
  it.each(blocked)('refuses %s (%s)', (_, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
  it.each([['8.8.8.8'], ['93.184.216.34'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8'], ['::8.8.8.8']])(
    'allows public %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('assertPublicTarget with WEBHOOK_ALLOW_PRIVATE_URLS=false', () => {
  it.each(blocked)('refuses a URL on %s', async (_, address) => {
    const host = address.includes(':') ? `[${address}]` : address;
    await expect(assertPublicTarget(`https://${host}/hook`)).rejects.toBeInstanceOf(UrlNotAllowedError);
  });
  it('refuses names that resolve to loopback', async () => {
    await expect(assertPublicTarget('https://localhost/hook')).rejects.toThrow(/non-public address/);
  });
  it('refuses http and other schemes, and credentials in the URL', async () => {
    await expect(assertPublicTarget('http://93.184.216.34/hook')).rejects.toThrow(/https/);
    await expect(assertPublicTarget('ftp://93.184.216.34/hook')).rejects.toThrow(/https/);
    await expect(assertPublicTarget('https://user:pw@93.184.216.34/hook')).rejects.toThrow(/credentials/);
    await expect(assertPublicTarget('not a url')).rejects.toThrow(/valid/);
  });
  it('accepts an https URL on a public address', async () => {
    await expect(assertPublicTarget('https://93.184.216.34/hook')).resolves.toBeUndefined();
  });
});

describe('the send-time check', () => {
  const request = { body: '{}', headers: { 'Content-Type': 'application/json' } };
  const options = { timeoutMs: 2000, allowPrivate: false };

  it.each([
    ['https://127.0.0.1:1/x'],
    ['https://[::1]:1/x'],
    ['https://169.254.169.254/latest/meta-data'],
    ['https://[fd00::1]/x'],
  ])('sends nothing to %s', async (url) => {
    const outcome = await sendWebhook(url, request, options);
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.error).toMatch(/^url_not_allowed/);
  });

  it('checks the address a name resolves to when connecting (DNS at send time)', async () => {
    const outcome = await sendWebhook('https://localhost:1/x', request, options);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/^url_not_allowed: localhost resolves to a non-public address/);
  });
});
