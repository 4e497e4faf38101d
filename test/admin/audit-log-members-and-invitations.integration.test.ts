// Tenant administration (docs/decisions.md "Tenant administration"): the audit log (same transaction, append-only, no
// secrets, filters), members and the last-admin rule (race-safe), removal taking effect, invitations
// and password reset links (one-time, expiring, hashed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWebSessionActive, startWebSession } from '@/server/auth/web-sessions';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import { viewerFromSession } from '@/server/trpc/membership';
import { createCaller } from '@/server/trpc/root';
import { givenChannel, givenEndpoint } from '../support/builders';
import { type FakeGraph, startFakeGraph } from '../support/fake-graph';
import { apiSuite, type SuiteTenant } from '../support/harness';
import { client, createTestUser } from '../support/helpers';

const DASHBOARD = 'https://dashboard.example.test';
let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph();
  Object.assign(process.env, {
    API_RATE_LIMIT_PER_SECOND: '0',
    API_RATE_LIMIT_PER_TENANT_PER_SECOND: '0',
    WHATSAPP_GRAPH_URL: graph.url,
    AUTH_URL: DASHBOARD,
  });
  resetSettingsCache();
});
afterAll(async () => {
  await graph.close();
  delete process.env.API_RATE_LIMIT_PER_SECOND;
  delete process.env.API_RATE_LIMIT_PER_TENANT_PER_SECOND;
  delete process.env.AUTH_URL;
  resetSettingsCache();
});
const suite = apiSuite({ agent: true });

async function auditRows(tenantId: string) {
  const { rows } = await pgPool().query('select * from audit_log where tenant_id = $1 order by id', [
    tenantId,
  ]);
  return rows as {
    id: string;
    action: string;
    actor_type: string;
    actor_id: string;
    target_type: string;
    target_id: string;
    ip: string | null;
  }[];
}

async function keyIdOf(t: SuiteTenant) {
  const { rows } = await pgPool().query(
    'select id from api_keys where tenant_id = $1 and revoked_at is null order by id limit 1',
    [t.tenantId],
  );
  return rows[0].id as string;
}

async function signIn(email: string, password: string, tenantId?: string) {
  const res = await suite.api('POST', '/auth/login', {
    body: { email, password },
    ...(tenantId ? { headers: { 'X-Tenant-ID': tenantId } } : {}),
  });
  return res;
}

const tokenOf = (url: string) => url.split('/').pop() as string;
const publicCaller = () => createCaller({ viewer: null, clientAddress: '203.0.113.9' });

describe('audit log', () => {
  it('records each change with its action, actor, target and client address, newest first', async () => {
    const t = await suite.newTenant('audit');
    const keyId = await keyIdOf(t);
    const key = await t.admin('POST', '/api-keys', { body: { name: 'ci' } });
    const rotated = await t.admin('POST', `/api-keys/${key.body.id}/rotate`, { body: {} });
    expect(rotated.status).toBe(201);
    expect((await t.admin('DELETE', `/api-keys/${rotated.body.id}`)).status).toBe(204);
    const endpoint = await givenEndpoint(t.admin, 'http://127.0.0.1:9/audit');
    expect((await t.admin('PATCH', `/webhooks/${endpoint.id}`, { body: { description: 'x' } })).status).toBe(
      200,
    );
    expect((await t.admin('POST', `/webhooks/${endpoint.id}/rotate-secret`)).status).toBe(200);
    expect((await t.admin('DELETE', `/webhooks/${endpoint.id}`)).status).toBe(204);
    const channel = await givenChannel(t.admin, String(800_000_000 + Math.floor(Math.random() * 1e8)));
    expect((await t.admin('DELETE', `/channels/${channel.id}`)).status).toBe(204);

    const res = await t.admin('GET', '/audit-log?limit=100');
    expect(res.status, res.text).toBe(200);
    const actions = res.body.data.map((e: { action: string }) => e.action).reverse();
    expect(actions).toEqual([
      'api_key.created',
      'api_key.rotated',
      'api_key.revoked',
      'webhook.created',
      'webhook.updated',
      'webhook.secret_rotated',
      'webhook.deleted',
      'channel.created',
      'channel.deleted',
    ]);
    for (const entry of res.body.data) {
      expect(entry.actor).toEqual({ type: 'api_key', id: keyId });
      expect(entry.ip).toBe('127.0.0.1');
    }
    expect(res.body.data[0].target).toEqual({ type: 'channel', id: channel.id });
    expect(res.body.data.at(-1).target).toEqual({ type: 'api_key', id: key.body.id });
    const ids = res.body.data.map((e: { id: string }) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it('records a person as the actor when the change comes from the dashboard (tRPC)', async () => {
    const t = await suite.newTenant('audit-trpc');
    const viewer = await viewerFromSession({
      user: { id: t.adminUserId, email: t.adminEmail, name: 'A' },
      tenantId: t.tenantId,
      sid: await startWebSession(t.adminUserId),
    });
    const caller = createCaller({ viewer, clientAddress: '198.51.100.4' });
    const created = await caller.apiKeys.createApiKey({ name: 'from the dashboard' });
    const [entry] = await auditRows(t.tenantId);
    expect(entry).toMatchObject({
      action: 'api_key.created',
      actor_type: 'user',
      actor_id: t.adminUserId,
      target_type: 'api_key',
      target_id: created.id,
      ip: '198.51.100.4',
    });
  });

  it('filters by action, actor and time, and pages with a cursor; bad filters get 422', async () => {
    const t = await suite.newTenant('audit-filters');
    const start = new Date().toISOString();
    for (let i = 0; i < 3; i++) await t.admin('POST', '/api-keys', { body: { name: `k${i}` } });
    await givenEndpoint(t.admin, 'http://127.0.0.1:9/f');
    const person = await t.as('admin');
    await person('POST', '/api-keys', { body: { name: 'by a person' } });
    const keyId = await keyIdOf(t);

    const created = await t.admin('GET', '/audit-log?action=api_key.created');
    expect(created.body.data).toHaveLength(4);
    const byKey = await t.admin('GET', `/audit-log?actor_id=${keyId}`);
    expect(byKey.body.data).toHaveLength(4);
    const byPerson = await t.admin(
      'GET',
      `/audit-log?action=api_key.created&actor_id=${created.body.data[0].actor.id}`,
    );
    expect(byPerson.body.data).toHaveLength(1);
    expect(byPerson.body.data[0].actor.type).toBe('user');
    expect((await t.admin('GET', `/audit-log?created_before=${start}`)).body.data).toEqual([]);
    expect((await t.admin('GET', `/audit-log?created_after=${start}`)).body.data).toHaveLength(5);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await t.admin('GET', `/audit-log?created_after=${future}`)).body.data).toEqual([]);

    const first = await t.admin('GET', '/audit-log?limit=2');
    expect(first.body.data).toHaveLength(2);
    const second = await t.admin('GET', `/audit-log?limit=2&cursor=${first.body.next_cursor}`);
    const third = await t.admin('GET', `/audit-log?limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body.next_cursor).toBeNull();
    const all = [...first.body.data, ...second.body.data, ...third.body.data].map((e) => e.id);
    expect(new Set(all).size).toBe(5);

    for (const query of ['action=api_key.deleted', 'actor_id=bkg_x', 'created_after=yesterday']) {
      const bad = await t.admin('GET', `/audit-log?${query}`);
      expect([bad.status, bad.body.code], query).toEqual([422, 'validation_failed']);
    }
    expect((await t.agent('GET', '/audit-log')).status).toBe(403);
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const t = await suite.newTenant('append-only');
    await t.admin('POST', '/api-keys', { body: { name: 'x' } });
    const [entry] = await auditRows(t.tenantId);
    await expect(
      pgPool().query("update audit_log set action = 'x' where id = $1", [entry.id]),
    ).rejects.toThrow(/append-only/);
    await expect(pgPool().query('delete from audit_log where id = $1', [entry.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(pgPool().query('truncate audit_log')).rejects.toThrow(/append-only/);
    expect(await auditRows(t.tenantId)).toEqual([entry]);
  });

  it('commits with its change or not at all', async () => {
    const t = await suite.newTenant('atomic');
    const endpoint = await givenEndpoint(t.admin, 'http://127.0.0.1:9/atomic');
    const before = await auditRows(t.tenantId);
    // A refused change writes no entry.
    expect((await t.admin('DELETE', '/api-keys/key_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q')).status).toBe(404);
    expect(await auditRows(t.tenantId)).toEqual(before);
    // An entry that cannot be written undoes its change.
    await pgPool().query(`
      create function refuse_audit_insert() returns trigger language plpgsql as $$
      begin raise exception 'audit write failed (test)'; end; $$;
      create trigger refuse_audit_insert before insert on audit_log for each row
        when (new.tenant_id = '${t.tenantId}') execute function refuse_audit_insert();`);
    try {
      const res = await t.admin('DELETE', `/webhooks/${endpoint.id}`);
      expect(res.status).toBe(500);
    } finally {
      await pgPool().query(
        'drop trigger refuse_audit_insert on audit_log; drop function refuse_audit_insert();',
      );
    }
    expect((await t.admin('GET', `/webhooks/${endpoint.id}`)).status).toBe(200);
    expect(await auditRows(t.tenantId)).toEqual(before);
  });

  it('never holds a secret', async () => {
    const t = await suite.newTenant('secrets', { agent: true });
    const secrets: string[] = [t.apiKey, t.adminPassword];
    const key = await t.admin('POST', '/api-keys', { body: { name: 's' } });
    secrets.push(key.body.key);
    const rotated = await t.admin('POST', `/api-keys/${key.body.id}/rotate`, { body: {} });
    secrets.push(rotated.body.key);
    const endpoint = await givenEndpoint(t.admin, 'http://127.0.0.1:9/s');
    secrets.push(endpoint.webhook_secret);
    const rotation = await t.admin('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    secrets.push(rotation.body.webhook_secret);
    const channelToken = `EAAG${'x'.repeat(20)}secret`;
    await givenChannel(t.admin, String(810_000_000 + Math.floor(Math.random() * 1e8)), channelToken);
    secrets.push(channelToken);
    const invitation = await t.admin('POST', '/invitations', {
      body: { email: 'new-s@example.test', role: 'agent' },
    });
    secrets.push(invitation.body.url, tokenOf(invitation.body.url));
    const password = 'a brand new password';
    await publicCaller().links.acceptInvitation({ token: tokenOf(invitation.body.url), name: 'S', password });
    secrets.push(password);
    const reset = await t.admin('POST', `/members/${t.agentUserId}/password-reset`);
    secrets.push(reset.body.url, tokenOf(reset.body.url));
    const newPassword = 'reset to this password';
    await publicCaller().links.completePasswordReset({
      token: tokenOf(reset.body.url),
      password: newPassword,
    });
    secrets.push(newPassword);

    const rows = await auditRows(t.tenantId);
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'member.invited',
        'member.joined',
        'member.password_reset',
        'member.password_changed',
      ]),
    );
    const text = JSON.stringify(rows) + JSON.stringify((await t.admin('GET', '/audit-log?limit=100')).body);
    for (const secret of secrets)
      expect(text.includes(secret), `audit log holds ${secret.slice(0, 12)}…`).toBe(false);
  });
});

describe('members', () => {
  it('lists members with their roles; a role change takes effect on the next request', async () => {
    const t = await suite.newTenant('members', { agent: true });
    const list = await t.admin('GET', '/members');
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      [t.adminUserId, 'admin'],
      [t.agentUserId, 'agent'],
    ]);
    expect((await t.agent('GET', '/api-keys')).status).toBe(403);
    const promoted = await t.admin('PATCH', `/members/${t.agentUserId}`, { body: { role: 'admin' } });
    expect([promoted.status, promoted.body.role]).toEqual([200, 'admin']);
    expect((await t.agent('GET', '/api-keys')).status).toBe(200);
    await t.admin('PATCH', `/members/${t.agentUserId}`, { body: { role: 'agent' } });
    expect((await t.agent('GET', '/api-keys')).status).toBe(403);
    const actions = (await auditRows(t.tenantId)).map((r) => [r.action, r.target_id]);
    expect(actions).toEqual([
      ['member.role_changed', t.agentUserId],
      ['member.role_changed', t.agentUserId],
    ]);
    expect(
      (await t.admin('PATCH', '/members/usr_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q', { body: { role: 'agent' } })).status,
    ).toBe(404);
    expect((await t.admin('PATCH', `/members/${t.agentUserId}`, { body: { role: 'owner' } })).status).toBe(
      422,
    );
    expect((await t.agent('GET', '/members')).status).toBe(403);
  });

  it('refuses to demote or remove the last admin (409 last_admin), and writes nothing', async () => {
    const t = await suite.newTenant('last-admin', { agent: true });
    const demote = await t.admin('PATCH', `/members/${t.adminUserId}`, { body: { role: 'agent' } });
    expect([demote.status, demote.body.code]).toEqual([409, 'last_admin']);
    const remove = await t.admin('DELETE', `/members/${t.adminUserId}`);
    expect([remove.status, remove.body.code]).toEqual([409, 'last_admin']);
    expect(await auditRows(t.tenantId)).toEqual([]);
    // With a second admin, the first can go.
    await t.admin('PATCH', `/members/${t.agentUserId}`, { body: { role: 'admin' } });
    expect((await t.admin('DELETE', `/members/${t.adminUserId}`)).status).toBe(204);
    const left = await t.admin('GET', '/members');
    expect(left.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([t.agentUserId]);
  });

  it('never leaves zero admins when two admins demote or remove each other at once', async () => {
    for (let round = 0; round < 5; round++) {
      const t = await suite.newTenant(`race-${round}`);
      const other = await createTestUser(t.tenantId, 'admin');
      const [x, y] =
        round % 2 === 0
          ? await Promise.all([
              t.admin('PATCH', `/members/${t.adminUserId}`, { body: { role: 'agent' } }),
              t.admin('PATCH', `/members/${other.userId}`, { body: { role: 'agent' } }),
            ])
          : await Promise.all([
              t.admin('DELETE', `/members/${t.adminUserId}`),
              t.admin('DELETE', `/members/${other.userId}`),
            ]);
      expect([x.status, y.status].sort()).toEqual(round % 2 === 0 ? [200, 409] : [204, 409]);
      const { rows } = await pgPool().query(
        "select count(*)::int as n from memberships where tenant_id = $1 and role = 'admin'",
        [t.tenantId],
      );
      expect(rows[0].n).toBe(1);
    }
  });

  it('a removed member: refresh tokens stop at once, access tokens on the next request, dashboard sessions end', async () => {
    const t = await suite.newTenant('removal');
    const person = await createTestUser(t.tenantId, 'agent');
    const session = await signIn(person.email, person.password);
    expect(session.status).toBe(200);
    const asPerson = client(suite.url, { tenantId: t.tenantId, token: session.body.access_token });
    expect((await asPerson('GET', '/bookings')).status).toBe(200);
    const sid = await startWebSession(person.userId);

    expect((await t.admin('DELETE', `/members/${person.userId}`)).status).toBe(204);

    expect((await asPerson('GET', '/bookings')).status).toBe(401);
    const refreshed = await suite.api('POST', '/auth/refresh', {
      body: { refresh_token: session.body.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    expect(await isWebSessionActive(sid, person.userId)).toBe(false);
    expect(
      await viewerFromSession({
        user: { id: person.userId, email: person.email },
        tenantId: t.tenantId,
        sid,
      }),
    ).toBeNull();
    expect((await t.admin('DELETE', `/members/${person.userId}`)).status).toBe(404);
    expect((await auditRows(t.tenantId)).map((r) => r.action)).toEqual(['member.removed']);
  });

  it('a person who stays in another tenant keeps their session there, without the tenant they left', async () => {
    const t = await suite.newTenant('removal-multi');
    const u = await suite.newTenant('elsewhere');
    const person = await createTestUser(t.tenantId, 'agent');
    const invite = await u.admin('POST', '/invitations', { body: { email: person.email, role: 'agent' } });
    await publicCaller().links.acceptInvitation({
      token: tokenOf(invite.body.url),
      password: person.password,
    });
    const sid = await startWebSession(person.userId);
    expect((await t.admin('DELETE', `/members/${person.userId}`)).status).toBe(204);
    const viewer = await viewerFromSession({ user: { id: person.userId }, tenantId: t.tenantId, sid });
    expect(viewer?.tenantId).toBeNull();
    const there = await viewerFromSession({ user: { id: person.userId }, tenantId: u.tenantId, sid });
    expect(there?.tenantId).toBe(u.tenantId);
  });
});

describe('invitations', () => {
  let t: SuiteTenant;
  beforeAll(async () => {
    t = await suite.newTenant('invitations', { agent: true });
  });

  it('creates a one-time link under AUTH_URL, stores only its hash, lists pending ones without it', async () => {
    const res = await t.admin('POST', '/invitations', {
      body: { email: 'Newcomer@Example.test', role: 'agent' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ email: 'newcomer@example.test', role: 'agent' });
    expect(res.body.url).toMatch(new RegExp(`^${DASHBOARD}/invite/[0-9A-Za-z]{43}$`));
    const days = (Date.parse(res.body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const token = tokenOf(res.body.url);
    const { rows } = await pgPool().query('select * from invitations where id = $1', [res.body.id]);
    expect(JSON.stringify(rows[0])).not.toContain(token);
    const list = await t.admin('GET', '/invitations');
    expect(list.body.data.map((i: { id: string }) => i.id)).toContain(res.body.id);
    expect(list.text).not.toContain(token);
    expect(list.body.data[0]).not.toHaveProperty('url');
  });

  it('an Idempotency-Key replays the link only to the credential that created it', async () => {
    const headers = { 'Idempotency-Key': `invite-${Date.now()}` };
    const body = { email: 'replayed@example.test', role: 'agent' };
    const first = await t.admin('POST', '/invitations', { body, headers });
    const again = await t.admin('POST', '/invitations', { body, headers });
    expect([again.status, again.body.url]).toEqual([201, first.body.url]);
    const person = await t.as('admin');
    const other = await person('POST', '/invitations', { body, headers });
    expect([other.status, other.body.code]).toEqual([409, 'idempotency_key_reused']);
    const { rows } = await pgPool().query('select response_body from idempotency_keys where key = $1', [
      headers['Idempotency-Key'],
    ]);
    expect(JSON.stringify(rows)).not.toContain(tokenOf(first.body.url));
    const pending = await t.admin('GET', '/invitations?limit=100');
    expect(pending.body.data.filter((i: { email: string }) => i.email === body.email)).toHaveLength(1);
  });

  it('refuses an email that is already a member (409 already_member)', async () => {
    const res = await t.admin('POST', '/invitations', {
      body: { email: t.adminEmail.toUpperCase(), role: 'admin' },
    });
    expect([res.status, res.body.code]).toEqual([409, 'already_member']);
    expect(
      (await t.admin('POST', '/invitations', { body: { email: 'not an email', role: 'agent' } })).status,
    ).toBe(422);
    expect(
      (await t.agent('POST', '/invitations', { body: { email: 'x@example.test', role: 'agent' } })).status,
    ).toBe(403);
  });

  it('a new person sets name and password, joins with the role, and the link is spent', async () => {
    const res = await t.admin('POST', '/invitations', {
      body: { email: 'fresh@example.test', role: 'admin' },
    });
    const token = tokenOf(res.body.url);
    expect(await publicCaller().links.invitation({ token })).toMatchObject({
      valid: true,
      email: 'fresh@example.test',
      role: 'admin',
      tenant_name: 'invitations',
      existing_user: false,
    });
    await expect(
      publicCaller().links.acceptInvitation({ token, name: 'Fresh', password: 'short' }),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });
    await publicCaller().links.acceptInvitation({ token, name: 'Fresh', password: 'a long enough password' });
    const login = await signIn('fresh@example.test', 'a long enough password');
    expect([login.status, login.body.user.role, login.body.tenant_id]).toEqual([200, 'admin', t.tenantId]);
    const entry = (await auditRows(t.tenantId)).find((r) => r.action === 'member.joined');
    expect(entry).toMatchObject({
      actor_type: 'user',
      actor_id: login.body.user.id,
      target_id: login.body.user.id,
    });
    expect(await publicCaller().links.invitation({ token })).toEqual({ valid: false });
    await expect(
      publicCaller().links.acceptInvitation({ token, name: 'Again', password: 'a long enough password' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/no longer valid/) });
    expect((await t.admin('GET', '/invitations')).text).not.toContain(res.body.id);
  });

  it('an existing user signs in with their own password to join', async () => {
    const elsewhere = await suite.newTenant('other-home');
    const res = await t.admin('POST', '/invitations', {
      body: { email: elsewhere.adminEmail, role: 'agent' },
    });
    const token = tokenOf(res.body.url);
    expect(await publicCaller().links.invitation({ token })).toMatchObject({ existing_user: true });
    await expect(
      publicCaller().links.acceptInvitation({ token, password: 'not their password' }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await publicCaller().links.acceptInvitation({ token, password: elsewhere.adminPassword });
    const login = await signIn(elsewhere.adminEmail, elsewhere.adminPassword, t.tenantId);
    expect([login.status, login.body.user.role]).toEqual([200, 'agent']);
  });

  it('revoked and expired links are no longer valid', async () => {
    const revoked = await t.admin('POST', '/invitations', {
      body: { email: 'revoked@example.test', role: 'agent' },
    });
    expect((await t.admin('DELETE', `/invitations/${revoked.body.id}`)).status).toBe(204);
    expect((await t.admin('DELETE', `/invitations/${revoked.body.id}`)).status).toBe(404);
    expect(await publicCaller().links.invitation({ token: tokenOf(revoked.body.url) })).toEqual({
      valid: false,
    });
    await expect(
      publicCaller().links.acceptInvitation({
        token: tokenOf(revoked.body.url),
        name: 'R',
        password: 'long password',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const expired = await t.admin('POST', '/invitations', {
      body: { email: 'expired@example.test', role: 'agent' },
    });
    await pgPool().query("update invitations set expires_at = now() - interval '1 second' where id = $1", [
      expired.body.id,
    ]);
    expect(await publicCaller().links.invitation({ token: tokenOf(expired.body.url) })).toEqual({
      valid: false,
    });
    await expect(
      publicCaller().links.acceptInvitation({
        token: tokenOf(expired.body.url),
        name: 'E',
        password: 'long password',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.admin('GET', '/invitations')).text).not.toContain(expired.body.id);
    expect(await publicCaller().links.invitation({ token: 'made-up' })).toEqual({ valid: false });
    const actions = (await auditRows(t.tenantId)).map((r) => r.action);
    expect(actions).toContain('invitation.revoked');
  });
});

describe('password reset links', () => {
  it('one-time, 1 h: sets the password and ends every session of the person', async () => {
    const t = await suite.newTenant('reset');
    const person = await createTestUser(t.tenantId, 'agent');
    const session = await signIn(person.email, person.password);
    const sid = await startWebSession(person.userId);
    const res = await t.admin('POST', `/members/${person.userId}/password-reset`);
    expect(res.status, res.text).toBe(201);
    expect(res.body.url).toMatch(new RegExp(`^${DASHBOARD}/reset-password/[0-9A-Za-z]{43}$`));
    const minutes = (Date.parse(res.body.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
    const token = tokenOf(res.body.url);
    expect(JSON.stringify((await pgPool().query('select * from password_resets')).rows)).not.toContain(token);
    expect(await publicCaller().links.passwordReset({ token })).toEqual({ valid: true, email: person.email });
    await expect(
      publicCaller().links.completePasswordReset({ token, password: 'short' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });

    await publicCaller().links.completePasswordReset({ token, password: 'the new password' });
    expect((await signIn(person.email, person.password)).status).toBe(401);
    expect((await signIn(person.email, 'the new password')).status).toBe(200);
    const refreshed = await suite.api('POST', '/auth/refresh', {
      body: { refresh_token: session.body.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    expect(await isWebSessionActive(sid, person.userId)).toBe(false);
    await expect(
      publicCaller().links.completePasswordReset({ token, password: 'yet another password' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await auditRows(t.tenantId)).map((r) => [r.action, r.target_id])).toEqual([
      ['member.password_reset', person.userId],
      ['member.password_changed', person.userId],
    ]);
  });

  it('expired links are no longer valid; non-members 404; people of other tenants too 403', async () => {
    const t = await suite.newTenant('reset-2');
    const person = await createTestUser(t.tenantId, 'agent');
    const res = await t.admin('POST', `/members/${person.userId}/password-reset`);
    await pgPool().query(
      "update password_resets set expires_at = now() - interval '1 second' where user_id = $1",
      [person.userId],
    );
    expect(await publicCaller().links.passwordReset({ token: tokenOf(res.body.url) })).toEqual({
      valid: false,
    });
    await expect(
      publicCaller().links.completePasswordReset({
        token: tokenOf(res.body.url),
        password: 'the new password',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.admin('POST', '/members/usr_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q/password-reset')).status).toBe(
      404,
    );

    const u = await suite.newTenant('reset-3');
    const invite = await u.admin('POST', '/invitations', { body: { email: person.email, role: 'agent' } });
    await publicCaller().links.acceptInvitation({
      token: tokenOf(invite.body.url),
      password: person.password,
    });
    const refused = await t.admin('POST', `/members/${person.userId}/password-reset`);
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
  });
});
