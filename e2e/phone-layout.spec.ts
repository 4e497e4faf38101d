// The dashboard on a phone (375 px): the navigation behind one menu button, lists whose rows read as
// cards with every action on screen, and no page wider than the screen. And on a desktop, the dark
// sidebar runs the whole height of a long page.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { api, expectNoSidewaysScroll, fixtures, signInToDashboard } from './fixtures';

const PHONE = { width: 375, height: 812 };

/** Every button and link of each table row lies inside the screen's width, without scrolling sideways. */
async function expectRowActionsOnScreen(page: Page, path: string) {
  const rows = page.locator('tbody tr');
  await expect(rows.first(), `${path} has rows`).toBeVisible();
  const outside = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    for (const row of document.querySelectorAll('tbody tr')) {
      for (const control of row.querySelectorAll<HTMLElement>('button, a[href], select')) {
        const box = control.getBoundingClientRect();
        if (box.width === 0) continue; // not rendered (e.g. inside a closed <details>)
        if (box.left < 0 || box.right > width) {
          found.push(
            `${control.textContent?.trim() || control.getAttribute('aria-label')} (${Math.round(box.left)}–${Math.round(box.right)} px)`,
          );
        }
      }
    }
    // No table scrolls sideways inside its box either: everything is on screen as it is.
    for (const table of document.querySelectorAll('table')) {
      const box = table.parentElement as HTMLElement;
      if (box.scrollWidth > box.clientWidth + 1)
        found.push(`a table ${box.scrollWidth} px wide in ${box.clientWidth} px`);
    }
    return found;
  });
  expect(outside, `${path}: row controls off the screen`).toEqual([]);
}

test.describe('at 375 px', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('overview, webhooks, API keys, events and audit log: no sideways scrolling, every row action on screen', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const endpoint = await api('POST', '/webhooks', {
      url: 'http://127.0.0.1:9/phone-check-receiver-with-a-rather-long-path',
      events: ['booking.*', 'conversation.*'],
      description: 'Front desk tablet',
    });
    expect(endpoint.status).toBe(201);
    expect((await api('POST', `/webhooks/${endpoint.body.id}/test`)).status).toBeLessThan(300);
    expect((await api('POST', '/api-keys', { name: 'Phone tablet' })).status).toBe(201);

    await signInToDashboard(page, fixtures().admin);
    for (const path of ['/', '/settings/webhooks', '/settings/api-keys', '/events', '/settings/audit-log']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page);
      if (path === '/') {
        await expect(page.getByTestId('delivery-chart')).toBeVisible();
        continue;
      }
      await expectRowActionsOnScreen(page, path);
    }

    // The rows' actions are the ones a desktop shows, e.g. Rotate and Revoke of each key.
    await page.goto('/settings/api-keys');
    const key = page.getByRole('row').filter({ hasText: 'Phone tablet' });
    // The create form (name and access) comes first: the list is below it.
    await key.scrollIntoViewIfNeeded();
    await expect(key.getByRole('button', { name: 'Revoke' })).toBeInViewport();
    await expect(key.getByRole('button', { name: 'Rotate' })).toBeVisible();
    // Each value is named by its column: "Prefix sk_live_…".
    await expect(key.locator('td[data-label="Prefix"]')).toBeVisible();

    // The audit log's actor and target get the card's width, not a sliver of it.
    await page.goto('/settings/audit-log');
    const entry = page.getByRole('row').filter({ hasText: 'api_key.created' }).first();
    const target = entry.locator('td[data-label="Target"]');
    await expect(target).toBeVisible();
    expect((await target.boundingBox())?.width ?? 0).toBeGreaterThan(250);
  });

  test('the navigation sits behind one menu button: expanded state, focus, Escape', async ({ page }) => {
    await signInToDashboard(page, fixtures().admin);
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    // Closed, the header takes a single row above the page's heading.
    const header = await page.locator('aside').boundingBox();
    expect(header?.height ?? 999).toBeLessThan(90);

    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'API keys' })).toBeInViewport();
    await expect(nav.getByRole('link', { name: 'Overview' })).toBeFocused();
    await expectAccessible(page, 'the open menu');

    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();

    // Following a link closes it.
    await menu.click();
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
  });
});

test('on a desktop the dark sidebar runs the whole height of a long page and keeps the links in view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await signInToDashboard(page, fixtures().admin);
  await page.goto('/settings/audit-log');
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await page.waitForLoadState('networkidle');
  const heights = await page.evaluate(() => ({
    page: document.documentElement.scrollHeight,
    viewport: window.innerHeight,
    sidebar: (document.querySelector('aside') as HTMLElement).getBoundingClientRect().height,
  }));
  expect(heights.page, 'a page longer than the window').toBeGreaterThan(heights.viewport);
  expect(heights.sidebar).toBeGreaterThanOrEqual(heights.page - 1);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }),
  ).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
});
