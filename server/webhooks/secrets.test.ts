import { describe, expect, it, vi } from 'vitest';
import * as secretBox from '@/server/security/secret-box';
import { newEncryptedSecret, signingSecrets } from './secrets';

vi.mock('@/server/security/secret-box', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/server/security/secret-box')>();
  return { ...actual, decryptSecret: vi.fn(actual.decryptSecret) };
});

describe('signing secrets', () => {
  it('are the current secret, and the previous one while its overlap lasts', () => {
    const current = newEncryptedSecret();
    const previous = newEncryptedSecret();
    const now = new Date();
    const endpoint = {
      secretEnc: current.secretEnc,
      previousSecretEnc: previous.secretEnc,
      previousSecretExpiresAt: new Date(now.getTime() + 1000),
    };
    expect(signingSecrets(endpoint, now)).toEqual([current.secret, previous.secret]);
    expect(signingSecrets(endpoint, new Date(now.getTime() + 1000))).toEqual([current.secret]);
    expect(
      signingSecrets({ ...endpoint, previousSecretEnc: null, previousSecretExpiresAt: null }, now),
    ).toEqual([current.secret]);
  });

  it('decrypt each stored secret once, and a rotated one afresh', () => {
    const decrypt = vi.mocked(secretBox.decryptSecret);
    const first = newEncryptedSecret();
    const endpoint = { secretEnc: first.secretEnc, previousSecretEnc: null, previousSecretExpiresAt: null };
    decrypt.mockClear();
    for (let i = 0; i < 5; i++) expect(signingSecrets(endpoint)).toEqual([first.secret]);
    expect(decrypt).toHaveBeenCalledTimes(1);

    const rotated = newEncryptedSecret();
    expect(signingSecrets({ ...endpoint, secretEnc: rotated.secretEnc })).toEqual([rotated.secret]);
    expect(decrypt).toHaveBeenCalledTimes(2);
  });
});
