// Restricted API keys (docs/decisions.md "Restricted keys"): a key holds the permissions it was
// created with (omitted: every permission of the admin role); a request needing another is 403
// forbidden naming it, and changes nothing; rotation keeps them; no credential mints or rotates a key
// holding more than it holds itself; the assistant's tools follow the same permissions. Every route,
// each against a key lacking its permission, is in the isolation matrix
// (test/api/tenant-isolation-matrix.integration.test.ts, "(e)").
import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  KEY_PRESETS,
  type Permission,
  permissionsOf,
} from '@/server/client-safe/permissions';
import { pgPool } from '@/server/db/pool';
import { bookingBody } from '../support/builders';
import { apiSuite } from '../support/harness';
import { client } from '../support/helpers';
import { rememberSecret } from '../support/log-scan';
import { closeAssistants, connectAssistant } from '../support/mcp-client';

const suite = apiSuite({ agent: true });
const { api, tenant } = suite;
const ADMIN = permissionsOf('admin');

async function keyWith(permissions?: Permission[], name = 'restricted') {
  const res = await tenant.admin('POST', '/api-keys', {
    body: { name, ...(permissions ? { permissions } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  rememberSecret('API key', res.body.key);
  return {
    id: res.body.id as string,
    key: res.body.key as string,
    record: res.body,
    api: client(suite.url, { tenantId: tenant.tenantId, token: res.body.key }),
  };
}

const counts = async () =>
  (
    await pgPool().query(
      `select (select count(*) from bookings where tenant_id = $1)::int as bookings,
              (select count(*) from api_keys where tenant_id = $1)::int as keys,
              (select count(*) from audit_log where tenant_id = $1)::int as audit`,
      [tenant.tenantId],
    )
  ).rows[0];

describe('creating restricted keys', () => {
  it('a key holds the permissions it was given, shown by POST and GET /api-keys; omitted, every admin permission', async () => {
    const restricted = await keyWith(['bookings.write', 'bookings.read', 'bookings.read']);
    expect(restricted.record.permissions).toEqual(['bookings.read', 'bookings.write']);
    const full = await keyWith(undefined, 'full');
    expect(full.record.permissions).toEqual(ADMIN);
    const listed = await tenant.admin('GET', '/api-keys?limit=100');
    const byId = new Map(
      listed.body.data.map((k: { id: string; permissions: string[] }) => [k.id, k.permissions]),
    );
    expect(byId.get(restricted.id)).toEqual(['bookings.read', 'bookings.write']);
    expect(byId.get(full.id)).toEqual(ADMIN);
    // The tenant's first key, made before any key had permissions, is a full key.
    const [first] = (
      await pgPool().query(`select id, permissions from api_keys where tenant_id = $1 order by id limit 1`, [
        tenant.tenantId,
      ])
    ).rows;
    expect(first.permissions).toEqual([]);
    expect(byId.get(first.id)).toEqual(ADMIN);
    expect(ADMIN).toContain('assistant_sessions.create');
  });

  it('an unknown permission or an empty list is 422 and creates nothing', async () => {
    const before = await counts();
    for (const permissions of [['bookings.delete'], [], ['bookings.read', 'root'], 'bookings.read']) {
      const res = await tenant.admin('POST', '/api-keys', { body: { name: 'bad', permissions } });
      expect([res.status, res.body.code], JSON.stringify(permissions)).toEqual([422, 'validation_failed']);
      expect(res.body.errors[0].path).toMatch(/^permissions/);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('a request outside the key’s permissions', () => {
  it('is 403 forbidden naming the permission, and changes nothing; inside them it works', async () => {
    const reader = await keyWith(KEY_PRESETS.read_only.permissions);
    const before = await counts();
    const refused = await reader.api('POST', '/bookings', { body: bookingBody() });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    expect(refused.body.detail).toContain('bookings.write');
    expect(await counts()).toEqual(before);
    expect((await reader.api('GET', '/bookings')).status).toBe(200);

    const writer = await keyWith(['bookings.write']);
    expect((await writer.api('POST', '/bookings', { body: bookingBody() })).status).toBe(201);
    const read = await writer.api('GET', '/bookings');
    expect([read.status, read.body.detail]).toEqual([
      403,
      'This needs the permission bookings.read, which this credential does not hold',
    ]);
  });

  it('the permission is checked before the body: a key without it learns nothing from a 422', async () => {
    const reader = await keyWith(['bookings.read']);
    const res = await reader.api('POST', '/bookings', { body: { nonsense: true } });
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
  });
});

describe('rotation', () => {
  it('keeps the permissions: the new key is refused and allowed exactly as the old one was', async () => {
    const old = await keyWith(['payments.read']);
    const rotated = await tenant.admin('POST', `/api-keys/${old.id}/rotate`, { body: {} });
    expect(rotated.status, rotated.text).toBe(201);
    rememberSecret('API key', rotated.body.key);
    expect(rotated.body.permissions).toEqual(['payments.read']);
    const next = client(suite.url, { tenantId: tenant.tenantId, token: rotated.body.key });
    expect((await next('GET', '/payments')).status).toBe(200);
    expect((await next('GET', '/bookings')).status).toBe(403);
    expect((await old.api('GET', '/payments')).status).toBe(401);
  });
});

describe('no escalation through api_keys.write', () => {
  const keyManager = () => keyWith(['api_keys.read', 'api_keys.write', 'bookings.read'], 'key manager');

  it('a key without members.write cannot mint a full key, nor one holding a permission it lacks', async () => {
    const manager = await keyManager();
    const before = await counts();
    const full = await manager.api('POST', '/api-keys', { body: { name: 'full' } });
    expect([full.status, full.body.code]).toEqual([403, 'forbidden']);
    expect(full.body.detail).toContain('members.write');
    const wider = await manager.api('POST', '/api-keys', {
      body: { name: 'wider', permissions: ['bookings.read', 'bookings.write'] },
    });
    expect([wider.status, wider.body.code]).toEqual([403, 'forbidden']);
    expect(wider.body.detail).toMatch(/lacks bookings\.write$/);
    expect(await counts()).toEqual(before);

    const narrower = await manager.api('POST', '/api-keys', {
      body: { name: 'narrower', permissions: ['bookings.read'] },
    });
    expect(narrower.status, narrower.text).toBe(201);
    rememberSecret('API key', narrower.body.key);
    expect(narrower.body.permissions).toEqual(['bookings.read']);
    const same = await manager.api('POST', '/api-keys', {
      body: { name: 'same', permissions: ['api_keys.read', 'api_keys.write', 'bookings.read'] },
    });
    expect(same.status).toBe(201);
    rememberSecret('API key', same.body.key);
  });

  it('nor rotate a key holding more than it does (the old key keeps working); a narrower one it may', async () => {
    const manager = await keyManager();
    const full = await keyWith(undefined, 'someone else’s full key');
    const before = await counts();
    const refused = await manager.api('POST', `/api-keys/${full.id}/rotate`, { body: {} });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    expect(await counts()).toEqual(before);
    expect((await full.api('GET', '/bookings')).status).toBe(200);

    const narrow = await keyWith(['bookings.read']);
    const rotated = await manager.api('POST', `/api-keys/${narrow.id}/rotate`, { body: {} });
    expect(rotated.status, rotated.text).toBe(201);
    rememberSecret('API key', rotated.body.key);
  });

  it('the dashboard (an admin person) may mint any preset; its keys hold what they were given', async () => {
    const admin = await tenant.as('admin');
    for (const preset of Object.values(KEY_PRESETS)) {
      const res = await admin('POST', '/api-keys', {
        body: { name: preset.label, permissions: preset.permissions },
      });
      expect(res.status, res.text).toBe(201);
      rememberSecret('API key', res.body.key);
      expect(res.body.permissions).toEqual(preset.permissions);
    }
    expect(KEY_PRESETS.full.permissions).toEqual(ADMIN);
    expect(KEY_PRESETS.read_only.permissions.every((p) => p.endsWith('.read'))).toBe(true);
    expect(KEY_PRESETS.assistant.permissions).toEqual([
      'services.read',
      'conversations.read',
      'assistant_sessions.create',
    ]);
    expect(ALL_PERMISSIONS.filter((p) => !ADMIN.includes(p))).toEqual([]);
  });
});

describe('the assistant’s tools follow the key’s permissions', () => {
  it('tools/list shows only what the key may call; another tool is refused forbidden naming its permission', async () => {
    const key = await keyWith(['assistant_tools.use', 'bookings.read']);
    const assistant = await connectAssistant(suite.url, { tenantId: tenant.tenantId, token: key.key });
    const { tools } = await assistant.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['find_slots', 'list_customer_bookings']);
    const before = await counts();
    const refused = await assistant.refused('book_slot', {
      service_id: 'svc_x',
      start_at: '2030-01-01T10:00:00.000Z',
      customer: { name: 'X' },
    });
    expect([refused.code, refused.detail]).toEqual([
      'forbidden',
      'This needs the permission bookings.write, which this credential does not hold',
    ]);
    expect(await counts()).toEqual(before);
    await closeAssistants();

    const withoutTools = await keyWith(['bookings.read', 'bookings.write']);
    const res = await api('POST', '/mcp', {
      tenantId: tenant.tenantId,
      token: withoutTools.key,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { Accept: 'application/json, text/event-stream' },
    });
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    expect(res.body.detail).toContain('assistant_tools.use');
  });
});
