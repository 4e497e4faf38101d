import { afterEach, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { decryptSecret, encryptSecret } from './secret-box';

const original = process.env.SECRETS_KEY;
afterEach(() => {
  process.env.SECRETS_KEY = original;
  resetSettingsCache();
});

describe('secret box', () => {
  it('round-trips, with a fresh IV each time', () => {
    const a = encryptSecret('whsec_abc');
    const b = encryptSecret('whsec_abc');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(decryptSecret(a)).toBe('whsec_abc');
    expect(decryptSecret(b)).toBe('whsec_abc');
  });

  it('refuses a tampered ciphertext', () => {
    const [version, iv, body] = encryptSecret('whsec_abc').split('.');
    const bytes = Buffer.from(body, 'base64url');
    bytes[0] ^= 1;
    expect(() => decryptSecret([version, iv, bytes.toString('base64url')].join('.'))).toThrow();
  });

  it('uses the key of the current SECRETS_KEY, not one derived earlier', () => {
    const sealed = encryptSecret('whsec_abc');
    process.env.SECRETS_KEY = 'another-secrets-key-another-secrets-key-0123';
    resetSettingsCache();
    expect(() => decryptSecret(sealed)).toThrow();
    expect(decryptSecret(encryptSecret('whsec_xyz'))).toBe('whsec_xyz');
  });
});
