// The API rate limit is one count for every instance: two server processes on one
// database together let through no more than the limit, not twice it; the per-tenant limit too.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/server/domain/api-keys/create-api-key';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { client, createTestTenant, type TestTenant } from '../support/helpers';
import { rememberSecret } from '../support/log-scan';

const LIMIT = 10;
/** All of a tenant's credentials together (API_RATE_LIMIT_PER_TENANT_PER_SECOND). */
const TENANT_LIMIT = 15;
const children: ChildProcess[] = [];
const urls: string[] = [];
let tenant: TestTenant;

function startServerProcess(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/processes/api-server-process.ts'], {
    env: {
      ...process.env,
      API_RATE_LIMIT_PER_SECOND: String(LIMIT),
      API_RATE_LIMIT_PER_TENANT_PER_SECOND: String(TENANT_LIMIT),
      API_RATE_LIMIT_STORE: 'postgres',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`API server process exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).url));
  });
}

beforeAll(async () => {
  tenant = await createTestTenant('Shared limit');
  urls.push(...(await Promise.all([startServerProcess(), startServerProcess()])));
}, 120_000);
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

describe('the API rate limit across instances', () => {
  it('lets through the limit once between two servers, however the requests are spread', async () => {
    const [one, two] = urls.map((url) => client(url, { tenantId: tenant.tenantId, token: tenant.apiKey }));
    // 4 × the limit within one window, half to each server.
    const answers = await Promise.all(
      Array.from({ length: LIMIT * 4 }, (_, i) => (i % 2 === 0 ? one : two)('GET', '/bookings')),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT * 3);
    const limited = answers.find((a) => a.status === 429);
    expect(limited?.body.code).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe("the per-tenant API limit across instances (security finding 1: one tenant can starve every other tenant's webhooks)", () => {
  it("counts all of a tenant's keys together, on every server, beside each key's own limit", async () => {
    const many = await createTestTenant('Many keys');
    const bystander = await createTestTenant('Bystander');
    const ctx = operationContext(many.tenantId, SYSTEM_ACTOR);
    const keys = [many.apiKey];
    for (const name of ['second', 'third']) {
      const created = await createApiKey(ctx, { name });
      rememberSecret('API key', created.key);
      keys.push(created.key);
    }
    // 3 keys × 12 requests within one window, spread over both servers: each key stays under its own
    // limit of 10 for 30 requests in all, of which the tenant's limit lets 15 through.
    const callers = keys.flatMap((key) =>
      urls.map((url) => client(url, { tenantId: many.tenantId, token: key })),
    );
    const answers = await Promise.all(
      Array.from({ length: keys.length * 12 }, (_, i) => callers[i % callers.length]('GET', '/bookings')),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(TENANT_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(keys.length * 12 - TENANT_LIMIT);
    const limited = answers.find((a) => a.status === 429);
    expect(limited?.body.code).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another tenant, in the same second, is not held up by this one's count.
    const other = client(urls[0], { tenantId: bystander.tenantId, token: bystander.apiKey });
    expect((await other('GET', '/bookings')).status).toBe(200);
  });
});
