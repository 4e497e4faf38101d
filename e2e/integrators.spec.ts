import { expect, test } from '@playwright/test';
import { api, fixtures, signInToDashboard } from './fixtures';
import { type Receiver, startReceiver } from './receiver';

let receiver: Receiver | undefined;
test.afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

test('/docs renders the API reference from the app itself, without signing in', async ({ page }) => {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['localhost', '127.0.0.1'].includes(url.hostname) && url.protocol !== 'data:')
      outside.push(url.href);
  });
  await page.goto('/docs');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar for Switchboard API' });
  await expect(sidebar).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('main', { name: 'API documentation for Switchboard API' })).toContainText(
    'Multi-tenant bookings, conversations, payments and signed webhooks.',
  );
  await page.screenshot({ path: 'test-results/screens/docs.png' });
  await sidebar.getByRole('button', { name: 'Open Group - Bookings' }).click();
  const create = sidebar.getByRole('link', { name: /Create a booking \(starts pending\)/ });
  await expect(create).toBeVisible();
  await create.click();
  await expect(page.getByRole('heading', { name: 'Create a booking (starts pending)' })).toBeVisible();
  // The webhooks map is rendered too, one entry per event type.
  await sidebar.getByRole('button', { name: 'Open Group - Webhook events' }).click();
  await expect(sidebar.getByRole('link', { name: /A booking was created/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/docs-operation.png' });
  // One reference, not two (the bundle also auto-mounts on id="api-reference").
  await expect(page.getByRole('complementary')).toHaveCount(1);
  expect(outside, 'the reference loads nothing from outside the app').toEqual([]);
});

test('the dashboard links to the API reference', async ({ page }) => {
  await signInToDashboard(page, fixtures().admin);
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API reference' });
  await expect(link).toHaveAttribute('href', '/docs');
});

test('Check receiver shows the report on the endpoint page', async ({ page }) => {
  receiver = await startReceiver(200);
  const created = await api('POST', '/webhooks', { url: receiver.url, events: ['booking.*'] });
  expect(created.status).toBe(201);
  await signInToDashboard(page, fixtures().admin);
  await page.goto(`/settings/webhooks/${created.body.id}`);
  await page.getByRole('button', { name: 'Check receiver' }).click();
  const report = page.getByTestId('receiver-report');
  // This receiver accepts everything, so it fails: only the valid request is judged right.
  await expect(report).toContainText('failed');
  await expect(page.getByTestId('receiver-case-valid')).toContainText('ok');
  await expect(page.getByTestId('receiver-case-bad_signature')).toContainText('wrong');
  await page.screenshot({ path: 'test-results/screens/receiver-check.png', fullPage: true });
  expect(receiver.requests).toHaveLength(4);
});
