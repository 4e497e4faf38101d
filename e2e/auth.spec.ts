import { expect, test } from '@playwright/test';
import { fixtures, signIn, signInToDashboard } from './fixtures';

test('a wrong password shows a clear error and keeps the visitor on /login', async ({ page }) => {
  const f = fixtures();
  await signIn(page, { email: f.admin.email, password: 'not the password' });
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong email or password.' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('repeated failures are rate limited like the REST login (429 message)', async ({ page }) => {
  const victim = { email: 'nobody-here@e2e.test', password: 'guess' };
  // The budget per email and address is 10 attempts (server/auth/rate-limits.ts); the 11th is refused.
  for (let i = 0; i < 10; i++) {
    await signIn(page, victim);
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong email or password.' })).toBeVisible();
  }
  await signIn(page, victim);
  await expect(page.getByRole('alert').filter({ hasText: 'Too many failed attempts' })).toBeVisible();
});

test('an admin signs in, sees the tenant and the settings navigation, and signs out', async ({ page }) => {
  const f = fixtures();
  await signInToDashboard(page, f.admin);
  await expect(page.getByTestId('current-tenant')).toContainText(`${f.tenantName} · admin`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Webhooks' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'API keys' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/bookings-empty.png', fullPage: true });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/settings/webhooks');
  await expect(page).toHaveURL(/\/login/);
});

test('signed-out visitors of dashboard pages are sent to /login', async ({ page }) => {
  await page.goto('/settings/api-keys');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Sign in to Switchboard' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/login.png' });
});

test('a user of two tenants picks one after sign-in and can switch', async ({ page }) => {
  const f = fixtures();
  await signIn(page, f.multi);
  await expect(page).toHaveURL(/\/select-tenant$/);
  await expect(page.getByRole('heading', { name: 'Choose a tenant' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/select-tenant.png' });
  await page.getByRole('button', { name: new RegExp(f.otherTenantName) }).click();
  await expect(page.getByTestId('current-tenant')).toContainText(`${f.otherTenantName} · admin`);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Switch tenant' }).click();
  await page.getByRole('button', { name: new RegExp(f.tenantName) }).click();
  await expect(page.getByTestId('current-tenant')).toContainText(`${f.tenantName} · agent`);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }),
  ).toHaveCount(0);
});
