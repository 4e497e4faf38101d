import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { expectNoSidewaysScroll, fixtures, signInToDashboard } from './fixtures';

async function restBookings(key: string) {
  const f = fixtures();
  const response = await fetch(`http://localhost:${process.env.E2E_PORT}/api/v1/bookings`, {
    headers: { Authorization: `Bearer ${key}`, 'X-Tenant-ID': f.tenantId },
  });
  return response.status;
}

test('an admin creates an API key (shown once) that works, then revokes it', async ({ page }) => {
  await signInToDashboard(page, fixtures().admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await page.getByLabel('Name').fill('Booking widget');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = page.getByRole('region', { name: /New API key/ }).getByTestId('secret-value');
  await expect(secret).toHaveText(/^sk_live_/);
  const key = (await secret.textContent()) ?? '';
  await page.screenshot({ path: 'test-results/screens/api-keys.png', fullPage: true });
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Booking widget' });
  await expect(row).toContainText('never');

  // The key works against the REST API, and the list then shows when it was last used.
  expect(await restBookings(key)).toBe(200);
  await page.reload();
  await expect(row).toBeVisible();
  await expect(row).not.toContainText('never');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page
    .getByRole('alertdialog', { name: 'Revoke “Booking widget”?' })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'API key revoked' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Booking widget' })).toHaveCount(0);
  expect(await restBookings(key)).toBe(401);
});

/** A REST request with `key` (status only). */
async function withKey(key: string, method: string, path: string, body?: unknown) {
  const f = fixtures();
  const response = await fetch(`http://localhost:${process.env.E2E_PORT}/api/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      'X-Tenant-ID': f.tenantId,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.status;
}

test('an admin creates read-only, assistant-host and chosen-permission keys; each row lists what its key holds', async ({
  page,
}) => {
  await signInToDashboard(page, fixtures().admin);
  await page.goto('/settings/api-keys');
  const create = page.getByRole('form', { name: 'Create an API key' });
  const access = create.getByRole('group', { name: 'Access' });
  await expect(access.getByRole('radio', { name: /Full access/ })).toBeChecked();

  // Read only: reads work, writes are refused with 403.
  await create.getByLabel('Name').fill('Reporting');
  await access.getByRole('radio', { name: /Read only/ }).check();
  await create.getByRole('button', { name: 'Create key' }).click();
  const secret = page.getByRole('region', { name: /New API key/ }).getByTestId('secret-value');
  await expect(secret).toHaveText(/^sk_live_/);
  const reporting = (await secret.textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  expect(await withKey(reporting, 'GET', '/bookings')).toBe(200);
  expect(await withKey(reporting, 'POST', '/api-keys', { name: 'escalate' })).toBe(403);
  const row = page.getByRole('row').filter({ hasText: 'Reporting' });
  await expect(row.getByText('Read only')).toBeVisible();
  await row.getByText(/\d+ permissions/).click();
  await expect(row.getByText('bookings.read')).toBeVisible();
  await expect(row.getByText('bookings.write')).toHaveCount(0);

  // The assistant host's preset: it mints sessions and reads, nothing else.
  await create.getByLabel('Name').fill('Front-desk assistant');
  await access.getByRole('radio', { name: /Assistant host/ }).check();
  await create.getByRole('button', { name: 'Create key' }).click();
  const host = (await page.getByTestId('secret-value').textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  expect(await withKey(host, 'GET', '/services')).toBe(200);
  expect(await withKey(host, 'GET', '/bookings')).toBe(403);

  // A chosen set: nothing chosen cannot be created; then bookings read and write.
  await create.getByLabel('Name').fill('Booking widget (bookings only)');
  await access.getByRole('radio', { name: /Chosen permissions/ }).check();
  await expect(create.getByRole('button', { name: 'Create key' })).toBeDisabled();
  const bookings = create.getByRole('group', { name: 'Bookings', exact: true });
  await bookings.getByLabel('read').check();
  await bookings.getByLabel('write').check();
  await page.screenshot({ path: 'test-results/screens/api-keys-chosen.png', fullPage: true });
  await create.getByRole('button', { name: 'Create key' }).click();
  const widget = (await page.getByTestId('secret-value').textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  expect(await withKey(widget, 'GET', '/bookings')).toBe(200);
  expect(await withKey(widget, 'GET', '/payments')).toBe(403);
  const widgetRow = page.getByRole('row').filter({ hasText: 'Booking widget (bookings only)' });
  await expect(widgetRow.getByText('2 permissions')).toBeVisible();
  await expect(
    page.getByRole('row').filter({ hasText: 'Front-desk assistant' }).getByText('Assistant host'),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/api-keys-1280.png', fullPage: true });
  await access.getByRole('radio', { name: /Chosen permissions/ }).check();
  await expectAccessible(page, 'API keys, choosing permissions, a key’s permissions open');

  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoSidewaysScroll(page);
  await expectAccessible(page, 'API keys on a phone');
  await page.screenshot({ path: 'test-results/screens/api-keys-375.png', fullPage: true });
});

test('rotating an API key with a grace period keeps the old key working for now', async ({ page }) => {
  await signInToDashboard(page, fixtures().admin);
  await page.goto('/settings/api-keys');
  await page.getByLabel('Name').fill('Nightly export');
  await page.getByRole('button', { name: 'Create key' }).click();
  const first = (await page.getByTestId('secret-value').textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Nightly export' });
  await expect(row).toHaveCount(1);
  await row.getByLabel('Old key stops').selectOption({ label: 'old key: 1 h grace' });
  await row.getByRole('button', { name: 'Rotate' }).click();
  const second = page.getByRole('region', { name: /Rotated API key/ }).getByTestId('secret-value');
  await expect(second).toHaveText(/^sk_live_/);
  expect(await restBookings((await second.textContent()) ?? '')).toBe(200);
  expect(await restBookings(first)).toBe(200);
  // Two rows now: the new key, and the old one marked with the time it stops working.
  await expect(page.getByRole('row').filter({ hasText: 'Nightly export' })).toHaveCount(2);
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: 'Nightly export' })
      .filter({ hasText: /stops \w/ }),
  ).toHaveCount(1);
});

test('an agent sees bookings and conversations only, and cannot open settings', async ({ page }) => {
  const f = fixtures();
  await signInToDashboard(page, f.agent);
  await expect(page.getByTestId('current-tenant')).toContainText('agent');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Conversations' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'API keys' })).toHaveCount(0);
  for (const path of ['/settings/webhooks', '/settings/api-keys']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
    await expect(page.getByText('whsec_')).toHaveCount(0);
  }
  await page.screenshot({ path: 'test-results/screens/agent-forbidden.png' });
  // The API behind the pages refuses too, whatever the UI shows.
  const status = await page.evaluate(
    async () => (await fetch('/api/trpc/apiKeys.listApiKeys?input=%7B%22json%22%3A%7B%7D%7D')).status,
  );
  expect(status).toBe(403);
});
