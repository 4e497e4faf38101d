// Webhook operations, the views: the overview with the tenant's chart, an endpoint's
// chart, filtered delivery lists whose filters live in the URL, and the event log with a payload.
import { expect, type Page, test } from '@playwright/test';
import { api, expectNoSidewaysScroll, fixtures, signInToDashboard } from './fixtures';
import { type Receiver, startReceiver } from './receiver';

const receivers: Receiver[] = [];
test.afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function shoot(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  // Nothing may widen the page on a phone (tables scroll inside their own box).
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/screens/${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 860 });
}

async function tenantTotals() {
  let succeeded = 0;
  let failed = 0;
  const endpoints = await api('GET', '/webhooks?limit=100');
  for (const e of endpoints.body.data as { id: string }[]) {
    const stats = await api('GET', `/webhooks/${e.id}/stats`);
    succeeded += stats.body.totals.succeeded;
    failed += stats.body.totals.failed;
  }
  return { succeeded, failed };
}

test('overview, endpoint charts, delivery filters in the URL, and the event log', async ({ page }) => {
  test.setTimeout(120_000);
  const healthy = await startReceiver(200);
  const down = await startReceiver(503);
  receivers.push(healthy, down);
  const ok = await api('POST', '/webhooks', {
    url: healthy.url,
    events: ['booking.*'],
    description: 'Charts ok',
  });
  const bad = await api('POST', '/webhooks', {
    url: down.url,
    events: ['booking.created'],
    description: 'Charts down',
  });
  expect(ok.status).toBe(201);
  expect(bad.status).toBe(201);
  const bookingIds: string[] = [];
  for (const name of ['Chart One', 'Chart Two']) {
    const created = await api('POST', '/bookings', {
      customer: { name },
      start_at: new Date(Date.now() + 86_400_000).toISOString(),
      end_at: new Date(Date.now() + 88_200_000).toISOString(),
    });
    expect(created.status).toBe(201);
    bookingIds.push(created.body.id);
  }
  // The healthy endpoint: 2 attempts that succeed; the one that is down: 2 deliveries × 3 attempts.
  await expect
    .poll(
      async () => (await api('GET', `/webhooks/${bad.body.id}/deliveries?status=failed`)).body.data.length,
      {
        timeout: 30_000,
      },
    )
    .toBe(2);
  await expect
    .poll(
      async () => (await api('GET', `/webhooks/${ok.body.id}/deliveries?status=succeeded`)).body.data.length,
    )
    .toBe(2);

  // The overview is the admin's home: the tenant's attempts, and the endpoint that is failing.
  await signInToDashboard(page, fixtures().admin);
  const totals = await tenantTotals();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const summary = page.getByTestId('chart-summary');
  await expect(summary).toContainText(`${totals.succeeded} succeeded · ${totals.failed} failed`);
  const attention = page.getByTestId(`attention-${bad.body.id}`);
  await expect(attention).toContainText('failing');
  await expect(attention).toContainText('6 failed attempts in a row');
  await expect(page.getByTestId(`attention-${ok.body.id}`)).toHaveCount(0);
  await expect(page.locator('.recharts-surface').first()).toBeVisible();
  await shoot(page, 'overview');

  // Each endpoint's chart, with its exact counts in the summary and the table beside it.
  await attention.getByRole('link', { name: down.url }).click();
  await expect(page.getByRole('heading', { name: down.url })).toBeVisible();
  await expect(page.getByTestId('chart-summary')).toContainText('0 succeeded · 6 failed · 0 pending');
  await page.getByText(/Show as a table/).click();
  const table = page.getByRole('table', { name: /Attempts in the last 24 hours by hour/ });
  await expect(table.getByRole('row').nth(1)).toContainText('6');
  await shoot(page, 'endpoint-chart');
  await page.goto(`/settings/webhooks/${ok.body.id}`);
  await expect(page.getByTestId('chart-summary')).toContainText('2 succeeded · 0 failed · 0 pending');
  await page.getByLabel('Chart range').selectOption('month');
  await expect(page.getByTestId('chart-summary')).toContainText('Attempts in the last 30 days');
  await expect(page.getByTestId('chart-summary')).toContainText('2 succeeded · 0 failed');

  // Filters: the URL holds them, so a reload (or a shared link) shows the same list.
  await page.goto(`/settings/webhooks/${bad.body.id}`);
  const rows = page.getByRole('row').filter({ hasText: /dlv_/ });
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Response').selectOption('5xx');
  await expect(page).toHaveURL(/response_status=5xx/);
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Status').selectOption('succeeded');
  await expect(page.getByText('No deliveries match these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption({ label: 'Any' });
  await page.getByLabel('Object id').fill(bookingIds[0]);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`object_id=${bookingIds[0]}`));
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel('Response')).toHaveValue('5xx');
  await expect(page.getByLabel('Object id')).toHaveValue(bookingIds[0]);
  await expect(rows).toHaveCount(1);
  await shoot(page, 'deliveries-filtered');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(2);

  // The failed list across endpoints, filtered by endpoint and event type, from a shared URL.
  await page.goto(`/settings/webhooks?view=failed&endpoint_id=${bad.body.id}&event_type=booking.*`);
  await expect(page.getByRole('tab', { name: 'Failed deliveries' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('row').filter({ hasText: /dlv_/ })).toHaveCount(2);
  await expect(page.getByLabel('Endpoint', { exact: true })).toHaveValue(bad.body.id);

  // The event log: filter by family, open a payload, copy it, follow a delivery.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
  await expect(page.getByRole('heading', { name: 'Events', exact: true })).toBeVisible();
  await page.getByLabel('Type').selectOption('booking.*');
  await expect(page).toHaveURL(/type=booking\.\*/);
  const eventRow = page.getByRole('row').filter({ hasText: bookingIds[1] });
  await expect(eventRow).toContainText('booking.created');
  await eventRow.getByRole('button', { name: 'Payload' }).click();
  const panel = page.getByTestId('event-panel');
  await expect(panel.getByTestId('event-payload')).toContainText(`"id": "${bookingIds[1]}"`);
  await expect(panel.getByTestId('event-payload')).toContainText('"name": "Chart Two"');
  await panel.getByRole('button', { name: 'Copy payload' }).click();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied.data.object.id).toBe(bookingIds[1]);
  const caused = panel.getByRole('table', { name: 'Deliveries of this event' }).getByRole('row');
  // (Endpoints of other tests that subscribe to everything get a delivery too.)
  await expect(caused.filter({ hasText: down.url })).toHaveCount(1);
  await expect(caused.filter({ hasText: healthy.url })).toHaveCount(1);
  await expect(caused.filter({ hasText: down.url })).toContainText('failed');
  await expect(caused.filter({ hasText: healthy.url })).toContainText('succeeded');
  await shoot(page, 'events');
  await caused.filter({ hasText: down.url }).getByRole('link').click();
  await expect(page.getByRole('heading', { name: down.url })).toBeVisible();
  await expect(page.getByTestId('delivery-panel')).toContainText('503');
});
