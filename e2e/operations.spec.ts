import { expect, test } from '@playwright/test';
import { api, fixtures, signInToDashboard } from './fixtures';

test('bookings created through the REST API are confirmed and completed in the dashboard', async ({
  page,
}) => {
  const start = new Date(Date.now() + 2 * 86_400_000);
  const created = await api('POST', '/bookings', {
    customer: { name: 'Grace Hopper', email: 'grace@example.test' },
    service: 'Dental check-up',
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 1_800_000).toISOString(),
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;

  await signInToDashboard(page, fixtures().agent);
  // Free-form bookings (no resource) are in the list, the calendar's second view.
  await page.getByRole('tab', { name: 'List' }).click();
  await expect(page).toHaveURL(/view=list/);
  const row = page.getByTestId(`booking-${id}`);
  await expect(row).toContainText('Grace Hopper');
  await expect(row).toContainText('pending');
  await page.screenshot({ path: 'test-results/screens/bookings.png', fullPage: true });
  await row.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Booking for Grace Hopper confirmed' }),
  ).toBeVisible();
  await expect(row.getByText('confirmed')).toBeVisible();
  expect((await api('GET', `/bookings/${id}`)).body.status).toBe('confirmed');

  await row.getByRole('button', { name: 'Complete' }).click();
  await expect(row.getByText('completed')).toBeVisible();
  await expect(row.getByRole('button')).toHaveCount(0);
});

test('a booking is cancelled with a reason from the dashboard', async ({ page }) => {
  const start = new Date(Date.now() + 3 * 86_400_000);
  const created = await api('POST', '/bookings', {
    customer: { name: 'Alan Turing', phone: '+441234567890' },
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 3_600_000).toISOString(),
  });
  expect(created.status).toBe(201);
  await signInToDashboard(page, fixtures().admin);
  await page.goto('/bookings?view=list');
  const row = page.getByTestId(`booking-${created.body.id}`);
  await row.getByRole('button', { name: 'Cancel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the booking for Alan Turing?' });
  await dialog.getByLabel('Reason').fill('Customer called to cancel');
  await dialog.getByRole('button', { name: 'Cancel booking' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: 'Booking for Alan Turing cancelled' }),
  ).toBeVisible();
  await expect(row).toContainText('cancelled');
  await expect(row).toContainText('Customer called to cancel');
  expect((await api('GET', `/bookings/${created.body.id}`)).body.cancellation_reason).toBe(
    'Customer called to cancel',
  );
});

test('a handed-off conversation waits in the queue until an agent takes it and resolves it', async ({
  page,
}) => {
  const created = await api('POST', '/conversations', {
    channel: 'web',
    contact: { name: 'Linus', phone: '+4915112345678' },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const handoff = await api('POST', `/conversations/${id}/handoff`, {
    reason: 'asks for a refund',
    summary: 'Wants a refund',
  });
  expect(handoff.status).toBe(200);

  await signInToDashboard(page, fixtures().agent);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  const queue = page.getByRole('table', { name: 'Hand-off queue' });
  const queued = queue.getByTestId(`conversation-${id}`);
  await expect(queued).toContainText('Wants a refund');
  await page.screenshot({ path: 'test-results/screens/conversations.png', fullPage: true });
  await queued.getByRole('button', { name: 'Assign to me' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'You now handle the conversation with Linus' }),
  ).toBeVisible();
  await expect(queue.getByTestId(`conversation-${id}`)).toHaveCount(0);

  const row = page.getByRole('table', { name: 'All conversations' }).getByTestId(`conversation-${id}`);
  await expect(row).toContainText('you');
  await row.getByRole('button', { name: 'Resolve' }).click();
  await expect(row.getByText('resolved')).toBeVisible();
  expect((await api('GET', `/conversations/${id}`)).body.status).toBe('resolved');
});

test('the conversation list loads its next page on "Load more"', async ({ page }) => {
  // One page is 50 conversations; the oldest of 55 new ones is on the second page (newest first).
  const ids: string[] = [];
  for (let batch = 0; batch < 11; batch++) {
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api('POST', '/conversations', { channel: 'web', contact: { name: `Paging ${batch * 5 + i}` } }),
      ),
    );
    for (const c of created) {
      expect(c.status).toBe(201);
      ids.push(c.body.id as string);
    }
  }
  const oldest = ids[0];

  await signInToDashboard(page, fixtures().agent);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  const all = page.getByRole('table', { name: 'All conversations' });
  await expect(all.getByTestId(`conversation-${ids[ids.length - 1]}`)).toBeVisible();
  await expect(all.getByTestId(`conversation-${oldest}`)).toHaveCount(0);
  await expect(all.locator('tbody tr')).toHaveCount(50);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(all.getByTestId(`conversation-${oldest}`)).toBeVisible();
  expect(await all.locator('tbody tr').count()).toBeGreaterThan(50);
});
