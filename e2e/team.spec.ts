// Tenant administration in the browser (docs/decisions.md "Tenant administration"): an admin invites an agent, who opens the link
// in a fresh browser, sets a password and lands in the dashboard; the admin sees both in the audit
// log; the agent cannot open the team or audit log pages. Also the payments page and reset links.
import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { api, expectNoSidewaysScroll, fixtures, signInToDashboard } from './fixtures';

async function screens(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/screens/${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an admin invites an agent, who joins through the link in a fresh browser; the audit log shows it', async ({
  page,
  browser,
}) => {
  const email = `new-agent-${randomBytes(3).toString('hex')}@example.test`;
  await signInToDashboard(page, fixtures().admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('heading', { name: 'Team' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('agent');
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  const link = page.getByTestId('one-time-link');
  await expect(link).toHaveText(/\/invite\/[0-9A-Za-z]{43}$/);
  const url = (await link.textContent()) ?? '';
  await expect(page.getByRole('row').filter({ hasText: email })).toBeVisible();
  await screens(page, 'team');

  // The agent, in a browser that never signed in.
  const fresh = await browser.newContext();
  const agentPage = await fresh.newPage();
  await agentPage.goto(url);
  await expect(agentPage.getByText(`You are invited to ${fixtures().tenantName}`)).toBeVisible();
  await screens(agentPage, 'invite');
  await agentPage.getByLabel('Your name').fill('New Agent');
  await agentPage.getByLabel('Choose a password').fill('agent password 123');
  await agentPage.getByLabel('Repeat the password').fill('agent password 123');
  await agentPage.getByRole('button', { name: 'Join the team' }).click();
  await expect(agentPage.getByRole('heading', { name: 'Bookings' })).toBeVisible();
  await expect(agentPage.getByTestId('current-tenant')).toContainText('agent');

  // The agent cannot open the admin pages.
  for (const path of ['/settings/team', '/settings/audit-log']) {
    await agentPage.goto(path);
    await expect(agentPage.getByRole('heading', { name: 'Admins only' })).toBeVisible();
    await expect(agentPage.getByRole('table')).toHaveCount(0);
  }
  await expect(
    agentPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }),
  ).toHaveCount(0);

  // The link is spent.
  const other = await browser.newContext();
  const reuse = await other.newPage();
  await reuse.goto(url);
  await expect(reuse.getByRole('alert').filter({ hasText: 'no longer valid' })).toBeVisible();
  await screens(reuse, 'invite-used');
  await other.close();
  await fresh.close();

  // The admin sees the invitation and the joining in the audit log.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByTestId('audit-member.joined').first()).toContainText(email);
  await expect(page.getByTestId('audit-member.invited').first()).toContainText(fixtures().admin.email);
  await page.getByLabel('Action').selectOption('member.joined');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByTestId('audit-member.invited')).toHaveCount(0);
  await expect(page.getByTestId('audit-member.joined').first()).toBeVisible();
  await screens(page, 'audit-log');

  // The new member is on the team page; a reset link can be made for them.
  await page.goto('/settings/team');
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('agent');
  await row.getByRole('button', { name: 'Reset link' }).click();
  await expect(page.getByTestId('one-time-link')).toHaveText(/\/reset-password\/[0-9A-Za-z]{43}$/);
  const resetUrl = (await page.getByTestId('one-time-link').textContent()) ?? '';
  const resetContext = await browser.newContext();
  const resetPage = await resetContext.newPage();
  await resetPage.goto(resetUrl);
  await expect(resetPage.getByLabel('Email')).toHaveValue(email);
  await screens(resetPage, 'reset-password');
  await resetPage.getByLabel('New password', { exact: true }).fill('a fresh password 456');
  await resetPage.getByLabel('Repeat the new password').fill('a fresh password 456');
  await resetPage.getByRole('button', { name: 'Set password' }).click();
  await expect(resetPage.getByRole('status')).toContainText('Your password is changed');
  await resetContext.close();
});

test('payments: amounts in their currency, filters, and the state actions with confirmation', async ({
  page,
}) => {
  const booking = await api('POST', '/bookings', {
    customer: { name: 'Payer' },
    start_at: new Date(Date.now() + 86_400_000).toISOString(),
    end_at: new Date(Date.now() + 90_000_000).toISOString(),
  });
  expect(booking.status).toBe(201);
  const eur = await api('POST', '/payments', { amount: 4550, currency: 'EUR', booking_id: booking.body.id });
  const jpy = await api('POST', '/payments', { amount: 4500, currency: 'JPY' });
  expect([eur.status, jpy.status]).toEqual([201, 201]);

  await signInToDashboard(page, fixtures().admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
  const eurRow = page.getByTestId(`payment-${eur.body.id}`);
  await expect(eurRow).toContainText('€45.50');
  await expect(page.getByTestId(`payment-${jpy.body.id}`)).toContainText('¥4,500');
  await screens(page, 'payments');

  await eurRow.getByRole('button', { name: 'Mark succeeded' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Mark succeeded' }).click();
  await expect(eurRow).toContainText('succeeded');
  // A manual payment is refunded in full: the dialog asks to confirm the whole amount.
  await eurRow.getByRole('button', { name: 'Refund' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Refund €45.50' }).click();
  await expect(eurRow).toContainText('refunded');

  await page.getByLabel('Booking id').fill(booking.body.id);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.getByTestId(`payment-${jpy.body.id}`)).toHaveCount(0);
  await expect(eurRow).toBeVisible();
  await page.getByLabel('Status').selectOption('pending');
  await expect(page.getByText(/No payments with status pending/)).toBeVisible();
});
