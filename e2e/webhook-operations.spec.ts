// Webhook operations in the dashboard (docs/operations.md "Webhook operations"): recovering failed deliveries with the dry-run
// count shown first, and re-enabling an endpoint the service disabled.
import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { api, expectNoSidewaysScroll, fixtures, signInToDashboard } from './fixtures';
import { type Receiver, startReceiver } from './receiver';

let receiver: Receiver;
test.afterEach(async () => {
  await receiver?.close();
});

async function newEndpoint(url: string, description: string): Promise<string> {
  const created = await api('POST', '/webhooks', { url, events: ['booking.*'], description });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function booking(name: string) {
  const created = await api('POST', '/bookings', {
    customer: { name, email: 'recover@example.test' },
    service: 'Check-up',
    start_at: '2027-03-01T09:00:00.000Z',
    end_at: '2027-03-01T09:30:00.000Z',
  });
  expect(created.status).toBe(201);
}

async function screens(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  // Nothing wider than the phone's screen.
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/screens/${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 860 });
}

test('recover failed deliveries: the dry-run count first, then confirm, and they are delivered again', async ({
  page,
}) => {
  receiver = await startReceiver(503);
  const id = await newEndpoint(receiver.url, 'Recovery target');
  for (const name of ['Ada', 'Grace', 'Edsger']) await booking(name);
  // Three attempts each (WEBHOOK_RETRY_WAITS 300ms,300ms), all answered 503: three failed deliveries.
  await expect
    .poll(async () => (await api('GET', `/webhooks/${id}/deliveries?status=failed`)).body.data.length, {
      timeout: 20_000,
    })
    .toBe(3);
  receiver.status = 200;
  const before = receiver.requests.length;

  await signInToDashboard(page, fixtures().admin);
  await page.goto(`/settings/webhooks/${id}`);
  const card = page.getByRole('region', { name: 'Recover failed deliveries' });
  await expect(card.getByLabel('Failed since')).toHaveValue(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
  await card.getByRole('button', { name: 'Count failed deliveries' }).click();
  await expect(card.getByTestId('recover-preview')).toContainText(
    '3 failed deliveries since then will be requeued',
  );
  // The dry run changed nothing.
  expect((await api('GET', `/webhooks/${id}/deliveries?status=failed`)).body.data).toHaveLength(3);
  await screens(page, 'webhook-recover');

  await card.getByRole('button', { name: 'Recover 3 deliveries' }).click();
  await expect(card.getByRole('status').filter({ hasText: '3 deliveries requeued' })).toBeVisible();
  await expect.poll(() => receiver.requests.length - before).toBe(3);
  await expect
    .poll(async () => (await api('GET', `/webhooks/${id}/deliveries?status=succeeded`)).body.data.length)
    .toBe(3);
  // The same deliveries, each with a fourth attempt (the first of its new round).
  const { body } = await api('GET', `/webhooks/${id}/deliveries`);
  expect(body.data.map((d: { attempt_count: number }) => d.attempt_count)).toEqual([4, 4, 4]);
  await expect(page.getByTestId(/^delivery-dlv_/).filter({ hasText: 'succeeded' })).toHaveCount(3);
});

test('an endpoint the service disabled shows why and since when, and is re-enabled in one click', async ({
  page,
}) => {
  receiver = await startReceiver(200);
  const id = await newEndpoint(receiver.url, 'Disabled by the service');
  // The state auto-disable leaves (docs/operations.md "Webhook operations"), written directly as other setups seed data.
  const { url } = await ensureEmbeddedDatabase(process.env.E2E_DATA_DIR ?? '');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(
      `update webhook_endpoints set is_active = false, disabled_reason = 'failing',
         disabled_at = now() - interval '2 hours', failure_streak = 50, failure_streak_since = now() - interval '1 day'
       where id = $1`,
      [id],
    );
  } finally {
    await db.end();
  }

  await signInToDashboard(page, fixtures().admin);
  await page.goto(`/settings/webhooks/${id}`);
  const banner = page.getByTestId('disabled-banner');
  await expect(banner).toContainText('Disabled by Switchboard: its deliveries kept failing');
  await expect(banner.locator('time')).toBeVisible();
  // Recovery waits for the endpoint to be enabled.
  const card = page.getByRole('region', { name: 'Recover failed deliveries' });
  await expect(card.getByRole('button', { name: 'Count failed deliveries' })).toBeDisabled();
  await screens(page, 'webhook-disabled');

  await banner.getByRole('button', { name: 'Re-enable' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Endpoint re-enabled' })).toBeVisible();
  await expect(page.getByTestId('disabled-banner')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Count failed deliveries' })).toBeEnabled();
  expect((await api('GET', `/webhooks/${id}`)).body).toMatchObject({
    is_active: true,
    disabled_reason: null,
    disabled_at: null,
  });

  // It receives events again.
  await booking('After re-enable');
  await expect.poll(() => receiver.requests.length).toBe(1);
});

test('the endpoint form sets and clears the rate limit', async ({ page }) => {
  const id = await newEndpoint('http://127.0.0.1:9/throttled', 'Throttled receiver');
  await signInToDashboard(page, fixtures().admin);
  await page.goto('/settings/webhooks');
  const row = page.getByRole('row').filter({ hasText: 'Throttled receiver' });
  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit webhook endpoint' });
  const limit = form.getByLabel('Rate limit (attempts per second)');
  await expect(limit).toHaveValue('');
  await limit.fill('7');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Endpoint updated' })).toBeVisible();
  expect((await api('GET', `/webhooks/${id}`)).body.rate_limit_per_second).toBe(7);

  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(form.getByLabel('Rate limit (attempts per second)')).toHaveValue('7');
  await form.getByLabel('Rate limit (attempts per second)').fill('');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(async () => (await api('GET', `/webhooks/${id}`)).body.rate_limit_per_second).toBeNull();
});
