// Stripe in the dashboard, against the stand-in Stripe that e2e/global-setup.ts starts (its API and
// its hosted checkout page): an admin connects Stripe in Settings > Payments (a refused key is shown at
// its field), a customer pays a paid booking on the checkout page (the stand-in sends the signed
// completion to the tenant's webhook URL), and the admin refunds part of it from /payments. Screens
// at 1280 and 375 px.
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

/** A paid booking (full price, 45.00 EUR) of a new service: its booking and payment as the API answers. */
async function paidBooking() {
  const resource = await api('POST', '/resources', {
    name: 'Room 2',
    kind: 'room',
    time_zone: 'UTC',
    weekly_hours: Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
    ),
  });
  expect(resource.status).toBe(201);
  const service = await api('POST', '/services', {
    name: 'Whitening',
    duration_minutes: 60,
    resource_ids: [resource.body.id],
    price: { amount: 4500, currency: 'EUR' },
    payment: 'full',
  });
  expect(service.status).toBe(201);
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const booking = await api('POST', '/bookings', {
    service_id: service.body.id,
    start_at: `${day}T10:00:00.000Z`,
    customer: { name: 'Grace Hopper', email: 'grace@example.test' },
  });
  expect(booking.status, JSON.stringify(booking.body)).toBe(201);
  expect(booking.body.payment.checkout_url).toMatch(/\/c\/pay\/cs_test_/);
  return booking.body as { id: string; payment: { id: string; checkout_url: string } };
}

test('an admin connects Stripe, a customer pays a booking, and the admin refunds part of it', async ({
  page,
  browser,
}) => {
  // Many screens at two widths, a checkout and an agent's browser: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  const { stripe, tenantId } = fixtures();
  await signInToDashboard(page, fixtures().admin);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Payment settings' })
    .click();
  await expect(page).toHaveURL(/\/settings\/payments$/);
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();

  // The URL to give Stripe is shown before connecting: Stripe's endpoint (and its secret) come first.
  await expect(page.getByTestId('stripe-webhook-url')).toHaveText(
    new RegExp(`/api/v1/payment-providers/stripe/webhook/${tenantId}$`),
  );
  const connect = page.getByRole('form', { name: 'Connect Stripe' });
  await connect.getByRole('button', { name: 'Verify and connect' }).click();
  await expect(connect.getByText('Paste the secret key (sk_test_… or sk_live_…)')).toBeVisible();
  await expect(connect.getByText('Paste the signing secret (whsec_…)')).toBeVisible();

  // A key Stripe refuses: the error is shown at the secret key field, nothing is connected.
  await connect.getByLabel('Secret key').fill('sk_test_NotAKeyStripeKnows000');
  await connect.getByLabel('Webhook signing secret').fill(stripe.webhookSecret);
  await connect.getByRole('button', { name: 'Verify and connect' }).click();
  await expect(connect.getByLabel('Secret key')).toHaveAttribute('aria-invalid', 'true');
  await expect(connect.getByText('Stripe refused the secret key')).toBeVisible();
  await screens(page, 'settings-payments-refused');

  await connect.getByLabel('Secret key').fill(stripe.secretKey);
  await connect.getByRole('button', { name: 'Verify and connect' }).click();
  await expect(page.getByText(`Stripe account ${stripe.id} connected`)).toBeVisible();
  const card = page.getByTestId('stripe-connection');
  await expect(card.getByText(stripe.id)).toBeVisible();
  await expect(card.getByText(`…${stripe.secretKey.slice(-4)}`)).toBeVisible();
  await expect(card.getByTestId('stripe-webhook-url')).toHaveText(
    new RegExp(`/api/v1/payment-providers/stripe/webhook/${tenantId}$`),
  );
  await expect(card.getByRole('button', { name: 'Copy URL' })).toBeVisible();
  // The secrets are never shown back, not even in the page's source.
  expect(await page.content()).not.toContain(stripe.secretKey);
  await screens(page, 'settings-payments');

  // A paid booking: its pending Stripe payment shows its checkout link, and no hand-made state changes.
  const booking = await paidBooking();
  await page.goto('/payments');
  const row = page.getByTestId(`payment-${booking.payment.id}`);
  await expect(row).toContainText('€45.00');
  await expect(row).toContainText('Stripe');
  await expect(row.getByRole('link', { name: 'Checkout link' })).toHaveAttribute(
    'href',
    booking.payment.checkout_url,
  );
  await expect(row.getByRole('button', { name: 'Mark succeeded' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Mark failed' })).toHaveCount(0);
  await screens(page, 'payments-stripe-pending');

  // The customer pays on the checkout page; the stand-in sends the completion to the tenant's URL.
  await page.goto(booking.payment.checkout_url);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByTestId('delivery')).toHaveText('Webhook answered 200');
  expect((await api('GET', `/bookings/${booking.id}`)).body.status).toBe('confirmed');

  await page.goto('/payments');
  await expect(row).toContainText('succeeded');
  await expect(row.getByRole('link', { name: 'Checkout link' })).toHaveCount(0);

  // Refund part of it: too much is refused in the form, then 12.50 of 45.00 after a confirmation.
  await row.getByRole('button', { name: 'Refund' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Amount (EUR)')).toHaveValue('45.00');
  await dialog.getByLabel('Amount (EUR)').fill('50');
  await dialog.getByRole('button', { name: 'Review refund' }).click();
  await expect(dialog.getByText('At most €45.00 remains to be refunded.')).toBeVisible();
  await screens(page, 'payments-refund-amount');
  await dialog.getByLabel('Amount (EUR)').fill('12.505');
  await dialog.getByRole('button', { name: 'Review refund' }).click();
  await expect(dialog.getByText('A number with at most 2 decimals, e.g. 12.50.')).toBeVisible();
  await dialog.getByLabel('Amount (EUR)').fill('12,50');
  await dialog.getByRole('button', { name: 'Review refund' }).click();
  await expect(dialog.getByRole('heading', { name: 'Refund €12.50?' })).toBeVisible();
  await screens(page, 'payments-refund-confirm');
  await dialog.getByRole('button', { name: 'Refund €12.50' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Refunded €12.50 of €45.00 so far')).toBeVisible();
  await expect(row.getByTestId('refunded-amount')).toHaveText('refunded €12.50');
  await expect(row).toContainText('succeeded');
  const payment = await api('GET', `/payments/${booking.payment.id}`);
  expect(payment.body).toMatchObject({ status: 'succeeded', refunded_amount: 1250 });
  await screens(page, 'payments-stripe-refunded');

  // The refund is in the audit log, with its amount.
  await page.goto('/settings/audit-log');
  const entry = page.getByTestId('audit-payment.refunded').first();
  await expect(entry).toContainText('€12.50');
  await expect(entry).toContainText(booking.payment.id);
  await expect(entry).toContainText(fixtures().admin.email);
  await screens(page, 'audit-log-refund');

  // An agent reads payments but changes none, and cannot open the Stripe settings.
  const agentContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  await signInToDashboard(agentPage, fixtures().agent);
  await agentPage.goto('/payments');
  const agentRow = agentPage.getByTestId(`payment-${booking.payment.id}`);
  await expect(agentRow.getByTestId('refunded-amount')).toHaveText('refunded €12.50');
  await expect(agentRow.getByRole('button')).toHaveCount(0);
  await agentPage.goto('/settings/payments');
  await expect(agentPage.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(agentPage.getByText(stripe.id)).toHaveCount(0);
  await agentContext.close();

  // Disconnecting asks first; then the connect form is back.
  await page.goto('/settings/payments');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Stripe disconnected')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Connect Stripe' })).toBeVisible();
  expect((await api('GET', '/payment-providers')).body.data).toEqual([]);
});
