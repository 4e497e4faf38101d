// Creates the tenants and users the tests sign in with, through the operator CLI (docs/operations.md "Running it in production"), and
// starts the stand-ins for Meta's Graph API the server sends WhatsApp messages to, holding one
// customer photo, and for Stripe (its API and hosted checkout page, with one account whose webhook
// endpoint is the main tenant's URL); both are kept until the run ends.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { serverEnv } from '@/playwright.config';
import { startFakeGraph } from '@/test/support/fake-graph';
import { FakeStripe } from '@/test/support/fake-stripe';
import { E2E_MEDIA, FIXTURES_FILE, type Fixtures } from './fixtures';

function cli(args: string[]): Record<string, string> {
  const out = execFileSync('npm', ['run', '--silent', 'cli', '--', ...args, '--json'], {
    env: { ...process.env, ...serverEnv },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = out.trim().split('\n').filter(Boolean).pop() ?? '';
  return JSON.parse(line) as Record<string, string>;
}

export default async function globalSetup() {
  const graph = await startFakeGraph(Number(process.env.E2E_GRAPH_PORT));
  graph.addMedia(E2E_MEDIA.id, { bytes: E2E_MEDIA.png, mimeType: 'image/png', token: E2E_MEDIA.token });

  const password = 'e2e password 1234';
  const admin = { email: 'admin@e2e.test', password };
  const agent = { email: 'agent@e2e.test', password };
  const multi = { email: 'multi@e2e.test', password };

  const main = cli([
    'tenant',
    'create',
    '--name',
    'Harbour Clinic',
    '--admin-email',
    admin.email,
    '--admin-password',
    password,
  ]);
  cli([
    'user',
    'create',
    '--tenant',
    main.tenant_id,
    '--email',
    agent.email,
    '--password',
    password,
    '--role',
    'agent',
  ]);
  // A user of two tenants (agent in one, admin in the other) exercises the tenant picker.
  const other = cli([
    'tenant',
    'create',
    '--name',
    'Northside Dental',
    '--admin-email',
    'owner@e2e.test',
    '--admin-password',
    password,
  ]);
  cli([
    'user',
    'create',
    '--tenant',
    main.tenant_id,
    '--email',
    multi.email,
    '--password',
    password,
    '--role',
    'agent',
  ]);
  cli([
    'user',
    'create',
    '--tenant',
    other.tenant_id,
    '--email',
    multi.email,
    '--password',
    password,
    '--role',
    'admin',
  ]);

  const stripe = await new FakeStripe().start(Number(process.env.E2E_STRIPE_PORT));
  const stripeAccount = stripe.createAccount();
  stripe.setWebhookEndpoint(
    stripeAccount,
    `http://localhost:${process.env.E2E_PORT}/api/v1/payment-providers/stripe/webhook/${main.tenant_id}`,
  );

  const fixtures: Fixtures = {
    tenantId: main.tenant_id,
    tenantName: 'Harbour Clinic',
    apiKey: main.api_key,
    otherTenantName: 'Northside Dental',
    admin,
    agent,
    multi,
    stripe: stripeAccount,
  };
  writeFileSync(FIXTURES_FILE(), JSON.stringify(fixtures));
  return async () => {
    await Promise.all([graph.close(), stripe.close()]);
  };
}
