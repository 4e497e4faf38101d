// axe-core on every page (e2e/axe.ts): no serious or critical violation on any dashboard page, with
// data in its lists, tables and charts, nor on the public pages (sign-in, invitation, password reset,
// tenant choice, the API reference). Then the three findings an outside axe run made, one by one.
import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { api, fixtures, signIn, signInToDashboard } from './fixtures';

/** A date (YYYY-MM-DD) `days` after today in UTC. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const everyDay = (start: string, end: string) =>
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start, end }]]));

test('every page passes axe with no serious or critical violation', async ({ browser }) => {
  test.setTimeout(240_000);
  const f = fixtures();
  const day = dayFromNow(2);
  const resource = await api('POST', '/resources', {
    name: 'Dr. Axe Ruiz',
    kind: 'staff',
    time_zone: 'UTC',
    weekly_hours: everyDay('08:00', '18:00'),
  });
  const service = await api('POST', '/services', {
    name: 'Check-up',
    duration_minutes: 30,
    resource_ids: [resource.body.id],
  });
  const booking = await api('POST', '/bookings', {
    service_id: service.body.id,
    start_at: `${day}T10:00:00.000Z`,
    customer: { name: 'Grace Hopper', phone: '+34600111222' },
  });
  const endpoint = await api('POST', '/webhooks', { url: 'http://127.0.0.1:9/a11y', events: ['*'] });
  const conversation = await api('POST', '/conversations', {
    channel: 'web',
    contact: { name: 'Alan Turing' },
  });
  const payment = await api('POST', '/payments', { amount: 2500, currency: 'EUR' });
  const invitation = await api('POST', '/invitations', { email: 'a11y-invitee@example.test', role: 'agent' });
  const members = await api('GET', '/members?limit=100');
  const agent = (members.body.data as { user_id: string; email: string }[]).find(
    (m) => m.email === f.agent.email,
  );
  const reset = await api('POST', `/members/${agent?.user_id}/password-reset`);
  for (const created of [resource, service, booking, endpoint, conversation, payment, invitation, reset]) {
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  expect((await api('POST', `/webhooks/${endpoint.body.id}/test`)).status).toBeLessThan(300);

  // Signed out: the public pages.
  const visitor = await browser.newContext();
  const publicPage = await visitor.newPage();
  await publicPage.goto('/login');
  await expect(publicPage.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(publicPage, '/login');
  await publicPage.goto(new URL(invitation.body.url).pathname);
  await expect(publicPage.getByText(`You are invited to ${f.tenantName}`)).toBeVisible();
  await expectAccessible(publicPage, '/invite');
  await publicPage.goto(new URL(reset.body.url).pathname);
  await expect(publicPage.getByLabel('New password', { exact: true })).toBeVisible();
  await expectAccessible(publicPage, '/reset-password');
  await publicPage.goto('/docs');
  await expect(publicPage.getByRole('complementary', { name: 'Sidebar for Switchboard API' })).toBeVisible({
    timeout: 30_000,
  });
  await expectAccessible(publicPage, '/docs');
  // Someone of two tenants chooses one.
  await signIn(publicPage, f.multi);
  await expect(publicPage.getByRole('heading', { name: /choose|tenant/i })).toBeVisible();
  await expectAccessible(publicPage, '/select-tenant');
  await visitor.close();

  // Signed in: every dashboard page, with rows in its tables.
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInToDashboard(page, f.admin);
  const pages = [
    '/',
    `/bookings?mode=day&date=${day}&r=${resource.body.id}&service=${service.body.id}`,
    `/bookings?mode=week&date=${day}&r=${resource.body.id}&service=${service.body.id}`,
    '/bookings?view=list',
    '/conversations',
    `/conversations/${conversation.body.id}`,
    '/payments',
    '/events',
    '/settings/resources',
    `/settings/resources/${resource.body.id}`,
    '/settings/services',
    '/settings/webhooks',
    `/settings/webhooks/${endpoint.body.id}`,
    '/settings/api-keys',
    '/settings/payments',
    '/settings/team',
    '/settings/audit-log',
  ];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('status').filter({ hasText: /Loading/ }), path).toHaveCount(0);
    await expectAccessible(page, path);
  }

  // A dialog too: the booking form a free slot opens.
  await page.goto(pages[1]);
  await page.getByTestId('free-slot').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'the booking form');
  await context.close();
});

test('the sidebar names its two payment links apart, on screen and for screen readers', async ({ page }) => {
  await signInToDashboard(page, fixtures().admin);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Payments', exact: true })).toHaveText('Payments');
  await expect(nav.getByRole('link', { name: 'Payment settings' })).toHaveText('Payment settings');
  // The settings links are a list named by the "Settings" heading above them.
  await expect(nav.getByRole('list', { name: 'Settings' }).getByRole('link')).toContainText([
    'Payment settings',
  ]);
});

test('nothing inside the overview charts takes keyboard focus, being hidden from screen readers', async ({
  page,
}) => {
  await signInToDashboard(page, fixtures().admin);
  await page.goto('/');
  await expect(page.getByTestId('delivery-chart').first()).toBeVisible();
  const focusableHidden = await page.evaluate(
    () =>
      [...document.querySelectorAll('[aria-hidden="true"]')].flatMap((hidden) =>
        [...hidden.querySelectorAll<HTMLElement>('*')].filter(
          (el) => el.tabIndex >= 0 || el.matches('a[href], button'),
        ),
      ).length,
  );
  expect(focusableHidden).toBe(0);
});

test('a free time reads as it looks ("14:30 free"), in text dark enough to read', async ({ page }) => {
  const day = dayFromNow(3);
  const resource = await api('POST', '/resources', {
    name: 'Dr. Lin',
    kind: 'staff',
    time_zone: 'UTC',
    weekly_hours: everyDay('14:00', '16:00'),
  });
  const service = await api('POST', '/services', {
    name: 'Lin consult',
    duration_minutes: 30,
    resource_ids: [resource.body.id],
  });
  await signInToDashboard(page, fixtures().admin);
  await page.goto(`/bookings?mode=day&date=${day}&r=${resource.body.id}&service=${service.body.id}`);
  const slot = page.getByTestId('free-slot').filter({ hasText: '14:30' });
  await expect(slot).toHaveAccessibleName(/^14:30 free: book .+ on Dr\. Lin$/);
  await expectAccessible(page, 'the calendar', {});
});
