// The setup every REST integration file needs, in one call: the real API on a loopback port and
// tenants created through the domain code, with a client per credential. `apiSuite()` registers
// its own beforeAll/afterAll; what it returns is filled in by that beforeAll, so it can be
// destructured at the top of the file and read inside tests and later hooks:
//
//   const { api, tenant: a, other: b } = apiSuite({ other: true, agent: true });
//   it('…', async () => { await a.admin('GET', '/bookings'); await a.agent('GET', '/bookings'); });
//
// A file that must set the environment before the server starts registers its own beforeAll
// before calling apiSuite (hooks run in order; afterAll in reverse, so it tears down last).
import { afterAll, beforeAll, expect } from 'vitest';
import { signAccessToken } from '@/server/auth/jwt';
import { resetSettingsCache } from '@/server/config/settings';
import { startApiServer, type TestServer } from './api-server';
import { type FakeGraph, startFakeGraph } from './fake-graph';
import { FakeStripe } from './fake-stripe';
import { client, createTestTenant, createTestUser, type TestTenant } from './helpers';
import { rememberSecret } from './log-scan';

/** A client of test/support/helpers.ts: fetch with default headers, every answer checked against its contract. */
export type Api = ReturnType<typeof client>;
export type Role = 'admin' | 'agent';

export interface SuiteTenant extends TestTenant {
  /** The tenant's first API key (an admin credential). */
  admin: Api;
  /** An agent's access token: only with `agent: true`. */
  agent: Api;
  /** The agent behind `agent`: only with `agent: true`. */
  agentUserId: string;
  /** A new member with that role, signed in through POST /auth/login; its client carries the access token. */
  as(role: Role): Promise<Api>;
}

export interface ApiSuiteOptions {
  /** A second tenant, `other`, for isolation tests (default false). */
  other?: boolean;
  /** Also an agent user and access-token client per tenant (default false). */
  agent?: boolean;
  /** No tenant at all, for files that only read public routes or create their own (default true). */
  tenant?: boolean;
}

export interface ApiSuite {
  /** The server's base URL, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** A client without tenant or credential (public routes, login, inbound webhooks). */
  api: Api;
  tenant: SuiteTenant;
  other: SuiteTenant;
  /** One more tenant for a test that needs an empty one (lists); `agent` defaults to the suite's. */
  newTenant(name: string, options?: { agent?: boolean }): Promise<SuiteTenant>;
}

export function apiSuite(options: ApiSuiteOptions = {}): ApiSuite {
  const { other: wantOther = false, agent: wantAgent = false, tenant: wantTenant = true } = options;
  let server: TestServer | undefined;
  const started = () => {
    if (!server) throw new Error('apiSuite: the server starts in beforeAll; use it inside a test or hook');
    return server;
  };
  const tenant = lateBound<SuiteTenant>('tenant', wantTenant ? '' : 'apiSuite({ tenant: false }) makes none');
  const other = lateBound<SuiteTenant>(
    'other',
    wantOther ? '' : 'ask for one with apiSuite({ other: true })',
  );
  const newTenant = async (name: string, opts: { agent?: boolean } = {}) =>
    suiteTenant(started().url, name, opts.agent ?? wantAgent);

  beforeAll(async () => {
    server = await startApiServer();
    const names = [...(wantTenant ? ['A'] : []), ...(wantOther ? ['B'] : [])];
    const [first, second] = await Promise.all(names.map((name) => newTenant(name)));
    if (wantTenant) tenant.fill(first);
    if (wantOther) other.fill(second);
  });
  afterAll(async () => {
    await server?.close();
  });

  return {
    get url() {
      return started().url;
    },
    api: (method, path, init) => client(started().url)(method, path, init),
    tenant: tenant.value,
    other: other.value,
    newTenant,
  };
}

async function suiteTenant(url: string, name: string, withAgent: boolean): Promise<SuiteTenant> {
  const created = await createTestTenant(name);
  const agentUser = withAgent ? await createTestUser(created.tenantId, 'agent') : undefined;
  const agentToken =
    agentUser &&
    (await signAccessToken({ userId: agentUser.userId, tenantId: created.tenantId, role: 'agent' }));
  rememberSecret('access token', agentToken);
  const noAgent = () => {
    throw new Error(`tenant ${name} has no agent: ask for one with apiSuite({ agent: true })`);
  };
  return {
    ...created,
    admin: client(url, { tenantId: created.tenantId, token: created.apiKey }),
    agent: agentToken ? client(url, { tenantId: created.tenantId, token: agentToken }) : noAgent,
    get agentUserId() {
      return agentUser ? agentUser.userId : noAgent();
    },
    as: async (role) => {
      const user = await createTestUser(created.tenantId, role);
      const session = await client(url)('POST', '/auth/login', {
        body: { email: user.email, password: user.password },
      });
      expect(session.status, `signing in a new ${role} of tenant ${name}: ${session.text}`).toBe(200);
      return client(url, { tenantId: created.tenantId, token: session.body.access_token });
    },
  };
}

/**
 * An object that can be handed out now and filled in a hook later; reading it before then (or when
 * the suite was not asked for it: `missing`) throws instead of answering undefined.
 */
function lateBound<T extends object>(what: string, missing: string) {
  let current: T | undefined;
  const read = (): T => {
    if (current) return current;
    throw new Error(
      missing
        ? `apiSuite: no ${what} tenant; ${missing}`
        : `apiSuite: ${what} is created in beforeAll; use it inside a test or hook`,
    );
  };
  const value = new Proxy({} as T, {
    get: (_, key) => Reflect.get(read(), key),
    has: (_, key) => Reflect.has(read(), key),
    ownKeys: () => Reflect.ownKeys(read()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(read(), key),
  });
  return {
    value,
    fill(filled: T) {
      current = filled;
    },
  };
}

/**
 * A stand-in Graph API for this file or describe block, with WHATSAPP_GRAPH_URL (and `settings`)
 * pointing at it from its beforeAll; call it before `apiSuite()` so the server starts with them.
 */
export function fakeGraphSuite(settings: Record<string, string> = {}): FakeGraph {
  let started: FakeGraph | undefined;
  const current = () => {
    if (!started) throw new Error('the fake Graph API starts in beforeAll');
    return started;
  };
  beforeAll(async () => {
    started = await startFakeGraph();
    Object.assign(process.env, { WHATSAPP_GRAPH_URL: started.url, ...settings });
    resetSettingsCache();
  });
  afterAll(async () => {
    await started?.close();
    resetSettingsCache();
  });
  return {
    get url() {
      return current().url;
    },
    get requests() {
      return current().requests;
    },
    failFor: (...args) => current().failFor(...args),
    rejectToken: (token) => current().rejectToken(token),
    addMedia: (...args) => current().addMedia(...args),
    close: () => current().close(),
  };
}

/**
 * A stand-in Stripe API for this file or describe block, with STRIPE_API_URL pointing at it from its
 * beforeAll; call it before `apiSuite()` so the server starts with it. Read its fields inside tests.
 */
export function fakeStripeSuite(): FakeStripe {
  const fake = new FakeStripe();
  beforeAll(async () => {
    await fake.start();
    process.env.STRIPE_API_URL = fake.url;
    resetSettingsCache();
  });
  afterAll(async () => {
    await fake.close();
    delete process.env.STRIPE_API_URL;
    resetSettingsCache();
  });
  return fake;
}
