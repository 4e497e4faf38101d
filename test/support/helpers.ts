// Test fixtures: real tenants, users and keys created through the domain code.
import { randomBytes } from 'node:crypto';
import { createTenantWithAdmin, createUser } from '@/server/domain/tenants';
import { assertExchangeConforms } from './contract';
import { rememberSecret } from './log-scan';

export interface TestTenant {
  tenantId: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
  adminUserId: string;
}

export async function createTestTenant(name = 'Test tenant'): Promise<TestTenant> {
  const adminEmail = `admin-${randomBytes(4).toString('hex')}@example.test`;
  const adminPassword = 'correct horse battery staple';
  const created = await createTenantWithAdmin({ name, adminEmail, adminPassword });
  rememberSecret('API key', created.apiKey);
  rememberSecret('password', adminPassword);
  return {
    tenantId: created.tenantId,
    apiKey: created.apiKey,
    adminEmail,
    adminPassword,
    adminUserId: created.userId,
  };
}

export async function createTestUser(tenantId: string, role: 'admin' | 'agent') {
  const email = `${role}-${randomBytes(4).toString('hex')}@example.test`;
  const password = 'another long password';
  const { userId } = await createUser({ tenantId, email, password, role });
  rememberSecret('password', password);
  return { userId, email, password };
}

/** fetch against the test server with the usual headers; every exchange is checked against the OpenAPI document. */
export function client(baseUrl: string, defaults: { tenantId?: string; token?: string } = {}) {
  return async (
    method: string,
    path: string,
    options: {
      body?: unknown;
      headers?: Record<string, string>;
      rawBody?: string;
      tenantId?: string | null;
      token?: string | null;
    } = {},
  ) => {
    const headers: Record<string, string> = {};
    const tenant = options.tenantId === undefined ? defaults.tenantId : options.tenantId;
    const token = options.token === undefined ? defaults.token : options.token;
    if (tenant) headers['X-Tenant-ID'] = tenant;
    if (token) headers.Authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    Object.assign(headers, options.headers);
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const response = await fetch(`${baseUrl}/api/v1${path}`, { method, headers, body });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    assertExchangeConforms(response.headers.get('x-request-id'), () => ({
      method,
      target: new URL(`${baseUrl}/api/v1${path}`).pathname + new URL(`${baseUrl}/api/v1${path}`).search,
      requestHeaders: new Headers({
        ...headers,
        ...(body ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}),
      }),
      requestBody: body,
      status: response.status,
      responseHeaders: response.headers,
      responseBody: bytes,
    }));
    rememberSecretsIn(json);
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes
    return { status: response.status, headers: response.headers, body: json as any, text };
  };
}

/** Tokens, keys and secrets an answer carries (sign-in, refresh, key and webhook creation), for the log scan. */
function rememberSecretsIn(json: unknown): void {
  if (!json || typeof json !== 'object') return;
  for (const [key, value] of Object.entries(json)) {
    if (typeof value === 'string' && /token|secret|^key$/.test(key)) rememberSecret(key, value);
  }
}
