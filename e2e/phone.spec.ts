import { expect, test } from '@playwright/test';
import { api, expectNoSidewaysScroll, fixtures, signInToDashboard } from './fixtures';

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

test('at phone width no page scrolls sideways; a list row reads as a card with its actions on screen', async ({
  page,
}) => {
  const start = new Date(Date.now() + 4 * 86_400_000);
  const created = await api('POST', '/bookings', {
    customer: { name: 'Ada Lovelace', email: 'ada@example.test' },
    service: 'Hygiene appointment',
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 1_800_000).toISOString(),
  });
  expect(created.status).toBe(201);

  await page.goto('/login');
  await expectNoSidewaysScroll(page);
  await signInToDashboard(page, fixtures().admin);
  // The navigation stays reachable on a phone, behind the menu button.
  await page.getByRole('button', { name: 'Menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'API keys' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await page.goto('/bookings?view=list');

  const row = page.getByTestId(`booking-${created.body.id}`);
  await expect(row).toContainText('Ada Lovelace');
  await expectNoSidewaysScroll(page);
  // The row is a card as wide as the screen: its actions are on screen without scrolling anything.
  const scroller = page.getByRole('table').locator('xpath=..');
  const box = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(box.scroll).toBeLessThanOrEqual(box.client);
  await row.getByRole('button', { name: 'Confirm' }).scrollIntoViewIfNeeded();
  await expect(row.getByRole('button', { name: 'Confirm' })).toBeInViewport();

  for (const path of [
    '/conversations',
    '/settings/webhooks',
    '/settings/api-keys',
    '/settings/resources',
    '/settings/services',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page);
  }
});

test('cancelling the confirm dialog leaves the API key working', async ({ page }) => {
  await signInToDashboard(page, fixtures().admin);
  await page.goto('/settings/api-keys');
  await page.getByLabel('Name').fill('Kiosk');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('secret-value').textContent()) ?? '';
  expect(key).toMatch(/^sk_live_/);
  await page.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: 'Kiosk' });
  await row.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Revoke “Kiosk”?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Revoke key' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  // Focus returns to the button that opened the dialog.
  await expect(row.getByRole('button', { name: 'Revoke' })).toBeFocused();

  // Escape dismisses it the same way.
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await expect(page.getByRole('status').filter({ hasText: 'API key revoked' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: 'Kiosk' })).toHaveCount(1);
  const response = await fetch(`http://localhost:${process.env.E2E_PORT}/api/v1/bookings`, {
    headers: { Authorization: `Bearer ${key}`, 'X-Tenant-ID': fixtures().tenantId },
  });
  expect(response.status).toBe(200);
});
