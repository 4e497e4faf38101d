import { expect, type Page, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { fixtures, signInToDashboard } from './fixtures';
import { type Receiver, startReceiver } from './receiver';

let receiver: Receiver;
test.afterEach(async () => {
  await receiver?.close();
});

async function createEndpoint(
  page: Page,
  url: string,
  description: string,
  screenshot?: string,
): Promise<string> {
  await page.goto('/settings/webhooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const form = page.getByRole('form', { name: 'New webhook endpoint' });
  await form.getByLabel('Endpoint URL').fill(url);
  await form.getByLabel('Description').fill(description);
  await expect(form.getByLabel('All events (*)')).toBeChecked();
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  await form.getByRole('button', { name: 'Create endpoint' }).click();
  const secret = page.getByRole('region', { name: /Signing secret/ }).getByTestId('secret-value');
  await expect(secret).toHaveText(/^whsec_/);
  return (await secret.textContent()) ?? '';
}

test('create an endpoint, copy its secret once, send a test event and inspect the succeeded delivery', async ({
  page,
}) => {
  receiver = await startReceiver(200);
  await signInToDashboard(page, fixtures().admin);
  const secret = await createEndpoint(
    page,
    receiver.url,
    'Front desk system',
    'test-results/screens/webhook-create.png',
  );
  await expect(page.getByRole('status').filter({ hasText: 'Endpoint created' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/webhooks-secret.png', fullPage: true });

  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(secret)).toHaveCount(0);

  const row = page.getByRole('row', {
    name: new RegExp(receiver.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
  });
  await expect(row.getByText('active')).toBeVisible();
  await row.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Test event evt_\w+ queued/ })).toBeVisible();

  // The receiver got a Standard Webhooks request signed with the secret shown at creation.
  await expect.poll(() => receiver.requests.length).toBe(1);
  const request = receiver.requests[0];
  const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
    type: string;
  };
  expect(verified.type).toBe('webhook.test');

  // After a reload the secret is nowhere on the page: it was shown once.
  await page.reload();
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(row.getByText(/100% of 1/)).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/webhooks.png', fullPage: true });

  await row.getByRole('link', { name: receiver.url }).click();
  await expect(page.getByRole('heading', { name: receiver.url })).toBeVisible();
  const delivery = page.getByRole('row').filter({ hasText: 'webhook.test' });
  await expect(delivery.getByText('succeeded')).toBeVisible();
  await delivery.getByRole('button', { name: 'Details' }).click();
  const panel = page.getByTestId('delivery-panel');
  const attempt = panel.getByTestId('attempt-1');
  await expect(attempt).toContainText('succeeded');
  await expect(attempt).toContainText('200');
  await expect(attempt).toContainText('thanks');
  await expect(panel.getByTestId('delivery-payload')).toContainText('"type": "webhook.test"');
  await page.screenshot({ path: 'test-results/screens/webhook-detail.png', fullPage: true });
});

test('a failing receiver leaves a failed delivery in "Failed deliveries"; Resend succeeds once it is fixed', async ({
  page,
}) => {
  receiver = await startReceiver(500);
  await signInToDashboard(page, fixtures().admin);
  await createEndpoint(page, receiver.url, 'Flaky receiver');
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Flaky receiver' });
  await row.getByRole('button', { name: 'Send test' }).click();
  // 1 attempt + 2 retries (WEBHOOK_RETRY_WAITS=300ms,300ms in playwright.config.ts).
  await expect.poll(() => receiver.requests.length, { timeout: 20_000 }).toBe(3);

  // Keyboard: the tabs follow the WAI-ARIA pattern (arrow keys switch and move focus).
  await page.getByRole('tab', { name: 'Endpoints' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Failed deliveries' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Failed deliveries' })).toHaveAttribute('aria-selected', 'true');
  const failed = page.getByRole('row').filter({ hasText: receiver.url });
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('webhook.test');
  await expect(failed.getByRole('cell', { name: '3', exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/failed-deliveries.png', fullPage: true });

  // The failed delivery's attempts show the receiver's answer.
  await failed.getByRole('link', { name: /dlv_/ }).click();
  const panel = page.getByTestId('delivery-panel');
  await expect(panel.getByTestId('attempt-3')).toContainText('500');
  await expect(panel.getByTestId('attempt-1')).toContainText('receiver is down for maintenance');

  receiver.status = 200;
  await panel.getByRole('button', { name: 'Resend' }).click();
  await expect(panel.getByRole('status').filter({ hasText: /Resent as delivery dlv_/ })).toBeVisible();
  await expect(page.getByTestId('delivery-panel').getByRole('heading', { name: /^Delivery/ })).toContainText(
    'succeeded',
  );
  await expect(page.getByRole('row').filter({ hasText: 'resend of' }).getByText('succeeded')).toBeVisible();
  expect(receiver.requests.length).toBe(4);

  // The endpoint's deliveries filter by status: the failed original, or the succeeded resend.
  const deliveryRows = page.getByRole('row').filter({ hasText: /dlv_/ });
  await page.getByLabel('Status').selectOption('failed');
  await expect(deliveryRows).toHaveCount(1);
  await expect(deliveryRows).toContainText('failed');
  await page.getByLabel('Status').selectOption('succeeded');
  await expect(deliveryRows).toHaveCount(1);
  await expect(deliveryRows).toContainText('resend of');
  await page.getByLabel('Status').selectOption({ label: 'Any' });
  await expect(deliveryRows).toHaveCount(2);
});

test('edit events, disable and enable, rotate the secret and delete an endpoint', async ({ page }) => {
  receiver = await startReceiver(200);
  await signInToDashboard(page, fixtures().admin);
  const first = await createEndpoint(page, receiver.url, 'Lifecycle');
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Lifecycle' });

  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit webhook endpoint' });
  await form.getByLabel('All events (*)').uncheck();
  await form.getByLabel('All booking events').check();
  await form.getByLabel('Description').fill('Lifecycle, bookings only');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Endpoint updated' })).toBeVisible();
  const edited = page.getByRole('row').filter({ hasText: 'Lifecycle, bookings only' });
  await expect(edited).toContainText('booking.*');

  await edited.getByRole('button', { name: 'Disable' }).click();
  await expect(edited.getByText('disabled', { exact: true })).toBeVisible();
  await expect(edited.getByRole('button', { name: 'Send test' })).toBeDisabled();
  await edited.getByRole('button', { name: 'Enable' }).click();
  await expect(edited.getByText('active', { exact: true })).toBeVisible();

  await edited.getByRole('button', { name: 'Rotate secret' }).click();
  await page
    .getByRole('alertdialog', { name: 'Rotate the signing secret?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click();
  const rotated = page.getByRole('region', { name: /New signing secret/ }).getByTestId('secret-value');
  await expect(rotated).toHaveText(/^whsec_/);
  expect(await rotated.textContent()).not.toBe(first);
  await page.getByRole('button', { name: 'Done' }).click();

  await edited.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete this endpoint?' })
    .getByRole('button', { name: 'Delete endpoint' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Endpoint deleted' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Lifecycle' })).toHaveCount(0);
});
