// The API rate limit is one count for every instance (CONTRACT §10, issue 11): two server processes
// on one database together let through no more than the limit, not twice it.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestTenant, type TestTenant } from './helpers';

const LIMIT = 10;
const children: ChildProcess[] = [];
const urls: string[] = [];
let tenant: TestTenant;

function startServerProcess(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/api-server-process.ts'], {
    env: { ...process.env, API_RATE_LIMIT_PER_SECOND: String(LIMIT), API_RATE_LIMIT_STORE: 'postgres' },
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
