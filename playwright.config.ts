// Browser tests against the production build (`npm run build && npm start`) on a free port, with a
// fresh embedded database in a temporary DATA_DIR. The config is evaluated again in every worker,
// so the chosen port and directory travel through the environment.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

function freePort(): string {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ['-e', script]).toString().trim();
}

const env = process.env;
if (!env.E2E_PORT) env.E2E_PORT = freePort();
if (!env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-e2e-'));
  env.E2E_DATA_DIR = dataDir;
  // The embedded PostgreSQL runs as the `postgres` OS user when we are root.
  chmodSync(dataDir, 0o755);
  // Only the process that made the directory removes it, after the web server has stopped.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
// A stand-in for Meta's Graph API (e2e/global-setup.ts), and the app secret inbound webhooks are signed with.
if (!env.E2E_GRAPH_PORT) env.E2E_GRAPH_PORT = freePort();
// A stand-in for Stripe's API and its hosted checkout page (e2e/global-setup.ts).
if (!env.E2E_STRIPE_PORT) env.E2E_STRIPE_PORT = freePort();
if (!env.E2E_WHATSAPP_SECRET) env.E2E_WHATSAPP_SECRET = randomBytes(16).toString('hex');
if (!env.E2E_AUTH_SECRET) env.E2E_AUTH_SECRET = randomBytes(32).toString('base64');
if (!env.E2E_SECRETS_KEY) env.E2E_SECRETS_KEY = randomBytes(32).toString('base64');

const baseURL = `http://localhost:${env.E2E_PORT}`;

export const serverEnv: Record<string, string> = {
  PORT: env.E2E_PORT,
  DATA_DIR: env.E2E_DATA_DIR,
  AUTH_SECRET: env.E2E_AUTH_SECRET,
  SECRETS_KEY: env.E2E_SECRETS_KEY,
  NEXTAUTH_URL: baseURL,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WHATSAPP_GRAPH_URL: `http://127.0.0.1:${env.E2E_GRAPH_PORT}/v21.0`,
  WHATSAPP_APP_SECRET: env.E2E_WHATSAPP_SECRET,
  STRIPE_API_URL: `http://127.0.0.1:${env.E2E_STRIPE_PORT}`,
  WEBHOOK_RETRY_WAITS: '300ms,300ms',
  WEBHOOK_TIMEOUT_MS: '3000',
  DELIVERY_ENGINE: 'worker',
  NEXT_TELEMETRY_DISABLED: '1',
  LOG_LEVEL: 'warn',
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: true,
  reporter: [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    permissions: ['clipboard-read', 'clipboard-write'],
    launchOptions: {
      executablePath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 860 } } },
  ],
  webServer: {
    // E2E_SKIP_BUILD=1 reuses an existing .next build while iterating on the tests.
    command: env.E2E_SKIP_BUILD === '1' ? 'npm start' : 'npm run build && npm start',
    url: `${baseURL}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    // SIGTERM lets the launcher stop Next.js and the embedded PostgreSQL in order.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: serverEnv,
  },
});
