// Assistant sessions, statement by statement of docs/decisions.md "Assistant sessions": minting
// (201 {id, token, conversation_id, expires_at}, ttl 60..3600 default 900, the token ast_… shown once
// and stored as a hash, 409 conversation_resolved), where the token works (POST /mcp with the tenant's
// X-Tenant-ID, nowhere else), when it stops (expiry, DELETE, the conversation resolved however it
// was resolved, also after it reopened), the cap per conversation, the cleanup job, and the audit.
// The customer-bound tools themselves are test/api/assistant-session-tools.integration.test.ts.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSISTANT_SESSION_PERMISSIONS, allows } from '@/server/client-safe/permissions';
import { pgPool } from '@/server/db/pool';
import { MAX_LIVE_SESSIONS_PER_CONVERSATION } from '@/server/domain/assistant-sessions/create-assistant-session';
import { deleteExpiredAssistantSessions } from '@/server/domain/assistant-sessions/delete-expired-sessions';
import { SESSION_TOOLS } from '@/server/mcp/session-tools';
import { PERIODIC_JOBS } from '@/server/runtime/jobs';
import { sha256Hex } from '@/server/security/hashing';
import { customerWrites, mintSession } from '../support/assistant-fixtures';
import { givenChannel, givenConversation } from '../support/builders';
import { apiSuite, fakeGraphSuite } from '../support/harness';
import { client } from '../support/helpers';
import { rememberSecret } from '../support/log-scan';
import { closeAssistants, connectAssistant } from '../support/mcp-client';

const APP_SECRET = 'test-whatsapp-app-secret-sessions';
fakeGraphSuite({ WHATSAPP_APP_SECRET: APP_SECRET });
const suite = apiSuite({ other: true, agent: true });
const { api, tenant: a, other: b } = suite;
const ACCEPT = { Accept: 'application/json, text/event-stream' };
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
let number: string;

beforeAll(async () => {
  number = String(400_000_000 + Math.floor(Math.random() * 1e8));
  await givenChannel(a.admin, number, 'token-sessions');
});
afterAll(closeAssistants);

const writes = (text?: string) =>
  customerWrites(api, { tenantId: a.tenantId, number, appSecret: APP_SECRET, text });

/** POST /mcp tools/list with `token` (and A's tenant unless told). */
const listWith = (token: string, tenantId = a.tenantId) =>
  api('POST', '/mcp', { body: LIST, token, tenantId, headers: ACCEPT });

async function sessionRows(conversationId: string) {
  return (
    await pgPool().query(`select * from assistant_sessions where tenant_id = $1 and conversation_id = $2`, [
      a.tenantId,
      conversationId,
    ])
  ).rows;
}

describe('minting a session', () => {
  it('answers 201 {id, token, conversation_id, expires_at}: ast_ token, 900 s by default, stored only as its hash', async () => {
    const { conversationId } = await writes();
    const before = Date.now();
    const res = await a.admin('POST', `/conversations/${conversationId}/assistant-sessions`, { body: {} });
    expect(res.status, res.text).toBe(201);
    rememberSecret('assistant session token', res.body.token);
    expect(Object.keys(res.body).sort()).toEqual(['conversation_id', 'expires_at', 'id', 'token']);
    expect(res.body.id).toMatch(/^asn_[0-9A-Z]{26}$/);
    expect(res.body.token).toMatch(/^ast_[0-9A-Za-z]{12}_[0-9A-Za-z]{40}$/);
    expect(res.body.conversation_id).toBe(conversationId);
    const ttl = Date.parse(res.body.expires_at) - before;
    expect(ttl).toBeGreaterThan(899_000);
    expect(ttl).toBeLessThan(905_000);
    const [row] = await sessionRows(conversationId);
    expect(row.token_hash).toBe(sha256Hex(res.body.token));
    expect(JSON.stringify(row)).not.toContain(res.body.token.split('_')[2]);
  });

  it('takes ttl_seconds from 60 to 3600; anything else is 422 and mints nothing', async () => {
    const { conversationId } = await writes();
    for (const ttl of [60, 3600]) {
      const session = await mintSession(a.admin, conversationId, { ttl_seconds: ttl });
      const seconds = (Date.parse(session.expires_at) - Date.now()) / 1000;
      expect(seconds).toBeGreaterThan(ttl - 5);
      expect(seconds).toBeLessThanOrEqual(ttl);
    }
    for (const ttl_seconds of [59, 3601, 90.5, '900', null]) {
      const res = await a.admin('POST', `/conversations/${conversationId}/assistant-sessions`, {
        body: { ttl_seconds },
      });
      expect([res.status, res.body.code, res.body.errors?.[0].path], String(ttl_seconds)).toEqual([
        422,
        'validation_failed',
        'ttl_seconds',
      ]);
    }
    expect(await sessionRows(conversationId)).toHaveLength(2);
  });

  it('a resolved conversation: 409 conversation_resolved, nothing minted', async () => {
    const { conversationId } = await writes();
    expect((await a.admin('POST', `/conversations/${conversationId}/resolve`)).status).toBe(200);
    const res = await a.admin('POST', `/conversations/${conversationId}/assistant-sessions`, { body: {} });
    expect([res.status, res.body.code]).toEqual([409, 'conversation_resolved']);
    expect(await sessionRows(conversationId)).toEqual([]);
  });

  it('needs assistant_sessions.create (agents and admins, the assistant preset); another tenant’s conversation is 404', async () => {
    const { conversationId } = await writes();
    await mintSession(a.agent, conversationId);
    const reader = await a.admin('POST', '/api-keys', {
      body: { name: 'no sessions', permissions: ['conversations.read'] },
    });
    rememberSecret('API key', reader.body.key);
    const refused = await api('POST', `/conversations/${conversationId}/assistant-sessions`, {
      body: {},
      tenantId: a.tenantId,
      token: reader.body.key,
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    expect(refused.body.detail).toContain('assistant_sessions.create');
    const theirs = await givenConversation(b.admin);
    const foreign = await a.admin('POST', `/conversations/${theirs.id}/assistant-sessions`, { body: {} });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
  });

  it(`at most ${MAX_LIVE_SESSIONS_PER_CONVERSATION} sessions of one conversation work at once (409 assistant_session_limit_reached); ended ones do not count`, async () => {
    const { conversationId } = await writes();
    const minted = await Promise.all(
      Array.from({ length: MAX_LIVE_SESSIONS_PER_CONVERSATION }, () =>
        a.admin('POST', `/conversations/${conversationId}/assistant-sessions`, { body: {} }),
      ),
    );
    expect(minted.map((r) => r.status)).toEqual(minted.map(() => 201));
    for (const m of minted) rememberSecret('assistant session token', m.body.token);
    const over = await a.admin('POST', `/conversations/${conversationId}/assistant-sessions`, { body: {} });
    expect([over.status, over.body.code]).toEqual([409, 'assistant_session_limit_reached']);
    expect(await sessionRows(conversationId)).toHaveLength(MAX_LIVE_SESSIONS_PER_CONVERSATION);
    expect((await a.admin('DELETE', `/assistant-sessions/${minted[0].body.id}`)).status).toBe(204);
    await mintSession(a.admin, conversationId);
    // Another conversation has a cap of its own.
    await mintSession(a.admin, (await writes()).conversationId);
  });
});

describe('where the token works', () => {
  it('POST /mcp with the tenant’s X-Tenant-ID; another tenant’s header is 403 tenant_mismatch; any other route 403 forbidden', async () => {
    const { conversationId } = await writes();
    const session = await mintSession(a.admin, conversationId);
    const listed = await listWith(session.token);
    expect(listed.status, listed.text).toBe(200);
    const mismatch = await listWith(session.token, b.tenantId);
    expect([mismatch.status, mismatch.body.code]).toEqual([403, 'tenant_mismatch']);
    const missing = await api('POST', '/mcp', {
      body: LIST,
      token: session.token,
      tenantId: null,
      headers: ACCEPT,
    });
    expect([missing.status, missing.body.code]).toEqual([400, 'tenant_header_missing']);
    const asSession = client(suite.url, { tenantId: a.tenantId, token: session.token });
    for (const [method, path] of [
      ['GET', '/bookings'],
      ['GET', `/conversations/${conversationId}`],
      ['POST', `/conversations/${conversationId}/assistant-sessions`],
      ['DELETE', `/assistant-sessions/${session.id}`],
      ['GET', '/api-keys'],
    ] as const) {
      const res = await asSession(method, path, method === 'POST' ? { body: {} } : {});
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([403, 'forbidden']);
    }
    // The token it could not end still works.
    expect((await listWith(session.token)).status).toBe(200);
  });

  it('holds exactly what its tools need (the route table and the session toolbox agree)', () => {
    const needed = new Set(['assistant_tools.use', ...SESSION_TOOLS.map((tool) => tool.route.permission)]);
    expect([...ASSISTANT_SESSION_PERMISSIONS].sort()).toEqual([...needed].sort());
    expect(allows(ASSISTANT_SESSION_PERMISSIONS, 'assistant_sessions.create')).toBe(false);
  });

  it('a malformed or unknown ast_ token is 401 unauthenticated', async () => {
    for (const token of ['ast_x', `ast_AAAAAAAAAAAA_${'0'.repeat(40)}`]) {
      const res = await listWith(token);
      expect([res.status, res.body.code], token).toEqual([401, 'unauthenticated']);
    }
    // The right prefix with another secret.
    const { conversationId } = await writes();
    const session = await mintSession(a.admin, conversationId);
    const forged = `${session.token.slice(0, 17)}${'A'.repeat(40)}`;
    expect((await listWith(forged)).status).toBe(401);
  });
});

describe('when it stops working (401, checked on every request)', () => {
  it('at expires_at', async () => {
    const { conversationId } = await writes();
    const session = await mintSession(a.admin, conversationId, { ttl_seconds: 60 });
    const assistant = await connectAssistant(suite.url, { tenantId: a.tenantId, token: session.token });
    expect((await assistant.client.listTools()).tools.length).toBeGreaterThan(0);
    // As the clock would make it, a minute on: its expiry is now.
    await pgPool().query(`update assistant_sessions set expires_at = now() where id = $1`, [session.id]);
    const error = await assistant.client.listTools().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
    const res = await listWith(session.token);
    expect([res.status, res.body.detail]).toEqual([401, 'This assistant session has expired']);
  });

  it('after DELETE /assistant-sessions/{id} (204; again: 404), which needs assistant_sessions.create', async () => {
    const { conversationId } = await writes();
    const session = await mintSession(a.admin, conversationId);
    expect((await listWith(session.token)).status).toBe(200);
    const reader = await a.admin('POST', '/api-keys', {
      body: { name: 'reader', permissions: ['bookings.read'] },
    });
    rememberSecret('API key', reader.body.key);
    const refused = await api('DELETE', `/assistant-sessions/${session.id}`, {
      tenantId: a.tenantId,
      token: reader.body.key,
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    expect((await listWith(session.token)).status).toBe(200);
    expect((await a.agent('DELETE', `/assistant-sessions/${session.id}`)).status).toBe(204);
    const res = await listWith(session.token);
    expect([res.status, res.body.code, res.body.detail]).toEqual([
      401,
      'unauthenticated',
      'This assistant session has been ended',
    ]);
    expect((await a.admin('DELETE', `/assistant-sessions/${session.id}`)).status).toBe(404);
    expect((await b.admin('DELETE', `/assistant-sessions/${session.id}`)).status).toBe(404);
  });

  it('once its conversation is resolved, through the API or otherwise, and still after a new message reopens it', async () => {
    const viaApi = await writes();
    const first = await mintSession(a.admin, viaApi.conversationId);
    expect((await a.admin('POST', `/conversations/${viaApi.conversationId}/resolve`)).status).toBe(200);
    const res = await listWith(first.token);
    expect([res.status, res.body.detail]).toEqual([
      401,
      'The conversation of this assistant session has been resolved',
    ]);
    // The customer writes again: the conversation reopens, the old session stays ended, a new one works.
    await customerWrites(api, {
      tenantId: a.tenantId,
      number,
      appSecret: APP_SECRET,
      phone: viaApi.phone,
      text: 'One more thing',
    });
    expect((await a.admin('GET', `/conversations/${viaApi.conversationId}`)).body.status).toBe('open');
    expect((await listWith(first.token)).status).toBe(401);
    const next = await mintSession(a.admin, viaApi.conversationId);
    expect((await listWith(next.token)).status).toBe(200);

    // Resolved by anything else that sets the status (an operator, a future path): checked at use.
    const other = await writes();
    const session = await mintSession(a.admin, other.conversationId);
    await pgPool().query(`update conversations set status = 'resolved' where id = $1`, [
      other.conversationId,
    ]);
    expect((await listWith(session.token)).status).toBe(401);
  });
});

describe('a hand-off, the cleanup job and the audit log', () => {
  it('a hand-off to a person sets handled_by to human', async () => {
    const { conversationId } = await writes();
    const session = await mintSession(a.admin, conversationId);
    const assistant = await connectAssistant(suite.url, { tenantId: a.tenantId, token: session.token });
    const handed = await assistant.ok('hand_off_to_human', { reason: 'Wants a person' });
    expect(handed).toMatchObject({ id: conversationId, status: 'pending_human', handled_by: 'human' });
    expect((await a.admin('GET', `/conversations/${conversationId}`)).body.handled_by).toBe('human');
  });

  it('expired sessions are deleted by a periodic job; live ones stay', async () => {
    const job = PERIODIC_JOBS.find((j) => j.name === 'delete-expired-assistant-sessions');
    expect(job?.everyMs).toBe(600_000);
    const { conversationId } = await writes();
    const expired = await mintSession(a.admin, conversationId);
    const live = await mintSession(a.admin, conversationId);
    await pgPool().query(
      `update assistant_sessions set expires_at = now() - interval '1 second' where id = $1`,
      [expired.id],
    );
    expect(await deleteExpiredAssistantSessions({ batch: 1 })).toBeGreaterThanOrEqual(1);
    expect((await sessionRows(conversationId)).map((r) => r.id)).toEqual([live.id]);
    expect(await job?.run()).toEqual({ deleted: 0 });
  });

  it('minting and ending are audited; every tool call is, with the session as actor', async () => {
    const { conversationId } = await writes();
    const session = await mintSession(a.admin, conversationId);
    const assistant = await connectAssistant(suite.url, { tenantId: a.tenantId, token: session.token });
    await assistant.ok('list_customer_bookings', {});
    await assistant.ok('send_message', { text: 'Hello!' });
    expect((await a.admin('DELETE', `/assistant-sessions/${session.id}`)).status).toBe(204);

    const log = await a.admin('GET', '/audit-log?limit=100');
    const mine = log.body.data
      .filter(
        (e: { target: { id: string }; actor: { id: string } }) =>
          e.target.id === session.id || e.actor.id === session.id,
      )
      .map((e: { action: string; actor: unknown; target: unknown; tool: string | null }) => [
        e.action,
        e.actor,
        e.target,
        e.tool,
      ])
      .reverse();
    const key = (
      await pgPool().query(`select id from api_keys where tenant_id = $1 order by id limit 1`, [a.tenantId])
    ).rows[0].id;
    const actor = { type: 'assistant_session', id: session.id };
    expect(mine).toEqual([
      [
        'assistant_session.created',
        { type: 'api_key', id: key },
        { type: 'assistant_session', id: session.id },
        null,
      ],
      [
        'assistant.tool_called',
        actor,
        { type: 'conversation', id: conversationId },
        'list_customer_bookings',
      ],
      ['assistant.tool_called', actor, { type: 'conversation', id: conversationId }, 'send_message'],
      [
        'assistant_session.revoked',
        { type: 'api_key', id: key },
        { type: 'assistant_session', id: session.id },
        null,
      ],
    ]);
    const byActor = await a.admin('GET', `/audit-log?actor_id=${session.id}`);
    expect(byActor.body.data).toHaveLength(2);
  });
});
