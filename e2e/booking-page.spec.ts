// The booking page and the manage page, as a customer uses them: a visitor in New York books a
// salon in Madrid (free, then paid through the stand-in Stripe's checkout, which returns to the manage
// page), sees the confirmation, opens the manage link, moves and cancels the booking; a time taken
// meanwhile is said so; a week across New York's change of clock shows each day's real times and books
// the right instant. Both pages at 375 and 1280 px with axe-core, their framing headers, and the
// first-load JavaScript of /book/[id] (written next to the screenshots).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { api, expectNoSidewaysScroll, fixtures, signInToDashboard } from './fixtures';

const SCREENS = process.env.SCREENS_DIR ?? 'test-results/screens/booking-page';
mkdirSync(SCREENS, { recursive: true });

const FRAME_ORIGIN = 'https://www.salon.example';
const ALL_WEEK = (ranges: { start: string; end: string }[]) =>
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, ranges]));

let free: { id: string };
let paid: { id: string };

test.use({ timezoneId: 'America/New_York' });

test.beforeAll(async () => {
  const resource = await api('POST', '/resources', {
    name: 'Chair 1',
    kind: 'staff',
    time_zone: 'Europe/Madrid',
    weekly_hours: ALL_WEEK([{ start: '09:00', end: '17:00' }]),
  });
  expect(resource.status, JSON.stringify(resource.body)).toBe(201);
  const service = (body: Record<string, unknown>) =>
    api('POST', '/services', {
      duration_minutes: 30,
      resource_ids: [resource.body.id],
      booking_window_days: 400,
      public: true,
      ...body,
    });
  const a = await service({ name: 'Haircut' });
  const b = await service({ name: 'Colour', price: { amount: 4000, currency: 'EUR' }, payment: 'full' });
  expect([a.status, b.status]).toEqual([201, 201]);
  free = a.body;
  paid = b.body;
  const tenant = await api('PATCH', '/tenant', { booking_page: { frame_origins: [FRAME_ORIGIN] } });
  expect(tenant.status, JSON.stringify(tenant.body)).toBe(200);
});

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true });
}

/** Picks the first free time of the first day with any, and answers its label. */
async function pickFirstTime(page: Page, index = 0): Promise<string> {
  const times = page.getByRole('group', { name: /^Time on / }).getByRole('button');
  await expect(times.first()).toBeVisible();
  const time = times.nth(index);
  const label = (await time.textContent()) ?? '';
  await time.click();
  return label;
}

async function fillCustomer(page: Page, phone: string) {
  await page.getByLabel('Name').fill('Lin Okafor');
  await page.getByLabel('Phone').fill(phone);
  await page.getByLabel('E-mail (optional)').fill('lin@example.test');
}

test('a visitor books a free service, opens the manage link, reschedules and cancels (375 and 1280 px)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const scripts: { url: string; bytes: Buffer }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script' && response.url().includes('/_next/static/')) {
      scripts.push({ url: response.url(), bytes: await response.body().catch(() => Buffer.alloc(0)) });
    }
  });
  const first = await page.goto(`/book/${free.id}`);
  expect(first?.status()).toBe(200);
  // Framed only by the tenant's origin, with the dashboard's headers and a nonce.
  const headers = first?.headers() ?? {};
  expect(headers['content-security-policy']).toContain(`frame-ancestors ${FRAME_ORIGIN};`);
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers['x-frame-options']).toBeUndefined();
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');

  await expect(page.getByRole('heading', { name: 'Haircut' })).toBeVisible();
  await expect(page.getByLabel('Time zone')).toHaveValue('America/New_York');
  await page.waitForLoadState('networkidle');
  const total = scripts.reduce((sum, s) => sum + s.bytes.length, 0);
  const gzipped = scripts.reduce((sum, s) => sum + gzipSync(s.bytes).length, 0);
  const figure = `first-load JS of /book/[id]: ${scripts.length} files, ${(total / 1024).toFixed(1)} KiB (${(gzipped / 1024).toFixed(1)} KiB gzip)`;
  console.log(figure);
  writeFileSync(path.join(SCREENS, 'first-load-js.txt'), `${figure}\n`);

  await expectNoSidewaysScroll(page);
  await expectAccessible(page, 'the booking page at 375 px');
  await shoot(page, 'book-375');

  const picked = await pickFirstTime(page);
  await fillCustomer(page, '+34600123001');
  await expectAccessible(page, 'the booking form at 375 px');
  await shoot(page, 'book-form-375');
  await page.getByRole('button', { name: 'Book', exact: true }).click();

  await expect(page).toHaveURL(/\/b\/mng_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
  await expect(page.getByTestId('booking-time')).toContainText(picked);
  await expect(page.getByTestId('booking-time')).toContainText('America/New_York');
  const manage = await page.request.get(page.url());
  expect(manage.headers()['content-security-policy']).toContain(`frame-ancestors ${FRAME_ORIGIN};`);
  await expectNoSidewaysScroll(page);
  await expectAccessible(page, 'the manage page at 375 px');
  await shoot(page, 'manage-375');

  // Reschedule to another free time.
  await page.getByRole('button', { name: 'Reschedule' }).click();
  const moved = await pickFirstTime(page, 2);
  await expectAccessible(page, 'rescheduling at 375 px');
  await shoot(page, 'manage-reschedule-375');
  await expect(page.locator('p', { hasText: 'New time:' })).toContainText(moved);
  await page.getByRole('button', { name: 'Move my booking' }).click();
  await expect(page.getByText('Your booking was moved.')).toBeVisible();
  await expect(page.getByTestId('booking-time')).toContainText(moved);

  // At 1280 px.
  await page.setViewportSize({ width: 1280, height: 860 });
  await expectAccessible(page, 'the manage page at 1280 px');
  await shoot(page, 'manage-1280');

  // Cancel, after confirming.
  await page.getByRole('button', { name: 'Cancel booking' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel booking' }).click();
  await expect(page.getByRole('heading', { name: 'Booking cancelled' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reschedule' })).toHaveCount(0);
  await shoot(page, 'manage-cancelled-1280');

  await page.goto(`/book/${free.id}`);
  await expect(page.getByRole('heading', { name: 'Haircut' })).toBeVisible();
  await pickFirstTime(page);
  await expectAccessible(page, 'the booking page at 1280 px');
  await shoot(page, 'book-1280');
});

test('a page that names nothing is 404 and may be framed by no one', async ({ page }) => {
  for (const url of ['/book/svc_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q', `/b/mng_${'A'.repeat(43)}`]) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(404);
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options'], url).toBe('DENY');
  }
});

test('Settings › Services shows a public service’s page link and embed snippet', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInToDashboard(page, fixtures().admin);
  await page.goto('/settings/services');
  const row = page.getByTestId(`service-${free.id}`);
  await expect(row.getByText('public page')).toBeVisible();
  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit service' });
  await expect(form.getByLabel(/^Public:/)).toBeChecked();
  await expect(form.getByLabel('Page link')).toHaveValue(new RegExp(`/book/${free.id}$`));
  await expect(form.getByLabel('Embed on your site')).toHaveValue(
    new RegExp(`<iframe src="[^"]+/book/${free.id}"`),
  );
  await form.getByLabel('Cancel and reschedule notice', { exact: true }).fill('2');
  await form.getByLabel('Cancel and reschedule notice unit').selectOption({ label: 'hours' });
  await form.getByLabel(/^Requires confirmation:/).check();
  await expectAccessible(page, 'Settings › Services with the booking page fields');
  await form.getByLabel('Page link').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SCREENS, 'settings-service-1280.png') });
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form).toHaveCount(0);
  const saved = await api('GET', `/services/${free.id}`);
  expect(saved.body).toMatchObject({ public: true, requires_confirmation: true, cancel_notice_minutes: 120 });
  // Back as it was, for the tests after this one.
  await api('PATCH', `/services/${free.id}`, { requires_confirmation: false, cancel_notice_minutes: 0 });
});

test('a paid service goes through Stripe Checkout and returns to the manage page, confirmed', async ({
  page,
}) => {
  const { stripe } = fixtures();
  const connected = await api('PUT', '/payment-providers/stripe', {
    secret_key: stripe.secretKey,
    webhook_secret: stripe.webhookSecret,
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  try {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`/book/${paid.id}`);
    await expect(page.getByRole('heading', { name: 'Colour' })).toBeVisible();
    await pickFirstTime(page, 1);
    await fillCustomer(page, '+34600123002');
    await page.getByRole('button', { name: /^Book and pay €40\.00$/ }).click();
    await expect(page.getByRole('heading', { name: /^Pay 40\.00 EUR/ })).toBeVisible();
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect(page.getByRole('heading', { name: 'Payment complete' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the business' }).click();
    await expect(page).toHaveURL(/\/b\/mng_/);
    await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
    await expect(page.getByText('succeeded')).toBeVisible();
    await expectAccessible(page, 'a paid booking’s manage page');
    await shoot(page, 'manage-paid-375');
  } finally {
    // The Stripe browser test starts from a tenant without Stripe.
    await api('DELETE', '/payment-providers/stripe');
  }
});

test('a time taken meanwhile says so and shows the free times again', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/book/${free.id}`);
  const picked = await pickFirstTime(page, 3);
  const chosen = page.getByRole('group', { name: /^Time on / }).getByRole('button', { name: picked });
  await expect(chosen).toHaveAttribute('aria-pressed', 'true');
  await fillCustomer(page, '+34600123003');
  // Someone else books that very time first.
  const days = await page.request.get(
    `/api/v1/public/services/${free.id}/slots?start=${new Date().toISOString().slice(0, 10)}&end=${new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10)}&time_zone=America/New_York`,
  );
  const slots = Object.values((await days.json()).days as Record<string, { start: string }[]>).flat();
  const taken = slots.find(
    (s) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'America/New_York',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(s.start)) === picked,
  );
  expect(taken).toBeDefined();
  const other = await page.request.post(`/api/v1/public/services/${free.id}/bookings`, {
    data: { start_at: taken?.start, customer: { name: 'Someone', phone: '+34600123999' } },
  });
  expect(other.status()).toBe(201);
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page.getByText('Sorry, that time was just taken.')).toBeVisible();
  await expect(
    page
      .getByRole('group', { name: /^Time on / })
      .getByRole('button')
      .first(),
  ).toBeVisible();
  await expect(
    page.getByRole('group', { name: /^Time on / }).getByRole('button', { name: picked, exact: true }),
  ).toHaveCount(0);
  await shoot(page, 'book-taken-375');
});

test('across New York’s change of clock, each day shows its real times and books the right instant', async ({
  page,
}) => {
  // New York moves to summer time on 14 March 2027, Madrid on 28 March: in between, the salon's
  // 09:00 is 04:00 in New York instead of 03:00.
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.clock.setFixedTime(new Date('2027-03-10T15:00:00Z'));
  await page.goto(`/book/${free.id}`);
  await expect(page.getByText('Wed 10 Mar – Tue 16 Mar')).toBeVisible();
  const days = page.getByRole('group', { name: 'Day' });
  await days.getByRole('button', { name: /Fri 12 Mar/ }).click();
  await expect(
    page.getByRole('group', { name: 'Time on Fri 12 Mar' }).getByRole('button').first(),
  ).toHaveText('03:00');
  await days.getByRole('button', { name: /Mon 15 Mar/ }).click();
  const monday = page.getByRole('group', { name: 'Time on Mon 15 Mar' }).getByRole('button');
  await expect(monday.first()).toHaveText('04:00');
  await monday.first().click();
  await fillCustomer(page, '+34600123004');
  await expect(page.getByText('Monday, 15 March 2027 at 04:00')).toBeVisible();
  await shoot(page, 'book-dst-1280');
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
  await expect(page.getByTestId('booking-time')).toContainText('Monday, 15 March 2027 at 04:00');
  const token = page.url().split('/b/')[1];
  const booking = await page.request.get(`/api/v1/public/bookings/${token}`);
  // 09:00 in Madrid (UTC+1) is 08:00 UTC.
  expect((await booking.json()).start_at).toBe('2027-03-15T08:00:00.000Z');
});
