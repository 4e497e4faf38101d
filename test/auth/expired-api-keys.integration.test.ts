// A key past its expires_at no longer authenticates (credentials-login-and-api-keys.integration.test.ts), so it is not a
// key of the tenant's any more: not listed, not counted against the tenant's limit, and neither
// rotated (which would hand out a working successor) nor revoked: 404, as a revoked key.
import { describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { apiSuite } from '../support/harness';

const { tenant: a } = apiSuite();

describe('an expired API key', () => {
  it('is not listed, cannot be rotated or revoked, and leaves room under the key limit', async () => {
    const soon = new Date(Date.now() + 1_000).toISOString();
    const created = await a.admin('POST', '/api-keys', { body: { name: 'short', expires_at: soon } });
    expect(created.status).toBe(201);
    const ids = async () => (await a.admin('GET', '/api-keys')).body.data.map((k: { id: string }) => k.id);
    expect(await ids()).toContain(created.body.id);
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    expect(await ids()).not.toContain(created.body.id);
    const rotated = await a.admin('POST', `/api-keys/${created.body.id}/rotate`, { body: {} });
    expect(rotated.status).toBe(404);
    expect((await a.admin('DELETE', `/api-keys/${created.body.id}`)).status).toBe(404);

    // The limit counts keys that authenticate: with every usable key counted, one more still fits.
    const usable = (await a.admin('GET', '/api-keys?limit=100')).body.data.length;
    process.env.MAX_API_KEYS_PER_TENANT = String(usable + 1);
    resetSettingsCache();
    try {
      expect((await a.admin('POST', '/api-keys', { body: { name: 'fits' } })).status).toBe(201);
      expect((await a.admin('POST', '/api-keys', { body: { name: 'over' } })).status).toBe(409);
    } finally {
      delete process.env.MAX_API_KEYS_PER_TENANT;
      resetSettingsCache();
    }
  });
});
