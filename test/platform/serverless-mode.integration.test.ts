// Serverless mode (VERCEL or SERVERLESS=true) refuses to serve with a missing setting, naming it
// at start (the launcher, as `VERCEL=1 npm start`) and on /api/health, and answers API requests 503.
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { resetSettingsCache } from '@/server/config/settings';
import { apiSuite } from '../support/harness';

const suite = apiSuite();
const serverless = { VERCEL: '1', INNGEST_EVENT_KEY: '', INNGEST_SIGNING_KEY: '', AUTH_URL: '' };
const saved = Object.fromEntries(Object.keys(serverless).map((k) => [k, process.env[k]]));

afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetSettingsCache();
});

function start(env: Record<string, string>) {
  const started = Date.now();
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'server/launcher/main.ts', 'start'], {
    env: {
      NODE_ENV: 'production',
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      AUTH_SECRET: 'x'.repeat(40),
      SECRETS_KEY: 'y'.repeat(40),
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: out.status, lines: out.stderr.trim().split('\n'), ms: Date.now() - started };
}

describe('serverless mode', () => {
  it('`VERCEL=1 npm start` without DATABASE_URL exits non-zero within seconds, naming DATABASE_URL', () => {
    const run = start({ VERCEL: '1' });
    expect(run.status).toBe(1);
    expect(run.lines[0]).toMatch(/DATABASE_URL is required in serverless mode/);
    expect(run.ms).toBeLessThan(20_000);
  });

  it('names DELIVERY_ENGINE when the worker engine is chosen', () => {
    const run = start({
      VERCEL: '1',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:9/none',
      AUTH_URL: 'https://switchboard.example.com',
      INNGEST_EVENT_KEY: 'e',
      INNGEST_SIGNING_KEY: 'signkey-prod-0123',
      DELIVERY_ENGINE: 'worker',
    });
    expect(run.status).toBe(1);
    expect(run.lines).toEqual([expect.stringMatching(/DELIVERY_ENGINE must be inngest in serverless mode/)]);
  });

  it('where the platform starts the app: /api/health is 503 naming each problem, and the API answers 503', async () => {
    Object.assign(process.env, serverless);
    resetSettingsCache();
    try {
      const res = await health();
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; problems: string[] };
      expect(body.status).toBe('misconfigured');
      expect(body.problems).toEqual([
        expect.stringMatching(/^AUTH_URL/),
        expect.stringMatching(/^INNGEST_EVENT_KEY/),
        expect.stringMatching(/^INNGEST_SIGNING_KEY/),
      ]);
      const api = await suite.tenant.admin('GET', '/bookings');
      expect(api.status).toBe(503);
      expect(api.body.code).toBe('service_unavailable');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetSettingsCache();
    }
    expect((await suite.tenant.admin('GET', '/bookings')).status).toBe(200);
  });
});
