import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { apiSuite } from '../support/harness';

// Endpoints and API keys per tenant are capped (many `*` endpoints would multiply one
// tenant's share of delivery, many keys its share of the API): one more answers 409 with its own
// code and creates nothing, also when the requests race; the cap is the tenant's alone.
const ENDPOINTS = 3;
const KEYS = 3;
beforeAll(() => {
  Object.assign(process.env, {
    MAX_WEBHOOK_ENDPOINTS_PER_TENANT: String(ENDPOINTS),
    MAX_API_KEYS_PER_TENANT: String(KEYS),
  });
  resetSettingsCache();
});
afterAll(() => {
  delete process.env.MAX_WEBHOOK_ENDPOINTS_PER_TENANT;
  delete process.env.MAX_API_KEYS_PER_TENANT;
  resetSettingsCache();
});
const { newTenant } = apiSuite({ tenant: false });

const endpoint = (i: number) => ({ url: `http://127.0.0.1:9/limit/${i}`, events: ['*'] });

describe("security finding 1: one tenant can starve every other tenant's webhooks (tenant limits)", () => {
  it('MAX_WEBHOOK_ENDPOINTS_PER_TENANT: one endpoint more is 409 endpoint_limit_reached', async () => {
    const t = await newTenant('endpoint cap');
    for (let i = 0; i < ENDPOINTS; i++) {
      expect((await t.admin('POST', '/webhooks', { body: endpoint(i) })).status).toBe(201);
    }
    const refused = await t.admin('POST', '/webhooks', { body: endpoint(9) });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('endpoint_limit_reached');
    expect(await forTenant(t.tenantId).webhookEndpoint.count()).toBe(ENDPOINTS);
    // Disabled endpoints count too; deleting one makes room.
    const list = await t.admin('GET', '/webhooks');
    await t.admin('PATCH', `/webhooks/${list.body.data[0].id}`, { body: { is_active: false } });
    expect((await t.admin('POST', '/webhooks', { body: endpoint(9) })).status).toBe(409);
    expect((await t.admin('DELETE', `/webhooks/${list.body.data[0].id}`)).status).toBe(204);
    expect((await t.admin('POST', '/webhooks', { body: endpoint(9) })).status).toBe(201);
    // Another tenant has its own allowance.
    const other = await newTenant('endpoint cap, other');
    expect((await other.admin('POST', '/webhooks', { body: endpoint(0) })).status).toBe(201);
  });

  it('holds when creations race: exactly the cap is created', async () => {
    const t = await newTenant('endpoint race');
    const answers = await Promise.all(
      Array.from({ length: ENDPOINTS + 4 }, (_, i) => t.admin('POST', '/webhooks', { body: endpoint(i) })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(ENDPOINTS);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
    expect(await forTenant(t.tenantId).webhookEndpoint.count()).toBe(ENDPOINTS);
  });

  it('MAX_API_KEYS_PER_TENANT: one key more is 409 api_key_limit_reached; rotation is never refused', async () => {
    const t = await newTenant('key cap');
    // The tenant's first key counts.
    for (let i = 1; i < KEYS; i++) {
      expect((await t.admin('POST', '/api-keys', { body: { name: `key ${i}` } })).status).toBe(201);
    }
    const refused = await t.admin('POST', '/api-keys', { body: { name: 'one too many' } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('api_key_limit_reached');
    const keys = await t.admin('GET', '/api-keys');
    expect(keys.body.data).toHaveLength(KEYS);
    // A revoked key no longer counts.
    const revoked = keys.body.data.find((k: { name: string }) => k.name === 'key 1');
    expect((await t.admin('DELETE', `/api-keys/${revoked.id}`)).status).toBe(204);
    expect((await t.admin('POST', '/api-keys', { body: { name: 'room again' } })).status).toBe(201);
    // Rotating at the cap replaces a key and is allowed; both work during the grace period, and count.
    const last = keys.body.data.find((k: { name: string }) => k.name === `key ${KEYS - 1}`);
    expect(
      (await t.admin('POST', `/api-keys/${last.id}/rotate`, { body: { grace_seconds: 60 } })).status,
    ).toBe(201);
    expect((await t.admin('GET', '/api-keys')).body.data).toHaveLength(KEYS + 1);
    expect((await t.admin('POST', '/api-keys', { body: { name: 'still full' } })).status).toBe(409);
  });
});
