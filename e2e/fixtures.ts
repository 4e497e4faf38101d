// What global-setup created (kept in the run's DATA_DIR).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export interface Fixtures {
  tenantId: string;
  tenantName: string;
  apiKey: string;
  otherTenantName: string;
  admin: { email: string; password: string };
  agent: { email: string; password: string };
  multi: { email: string; password: string };
  /** An account at the stand-in Stripe (not yet connected to any tenant). */
  stripe: { id: string; secretKey: string; webhookSecret: string };
}

/** A customer's photo the stand-in Graph API holds for the channel with this token (1×1 PNG). */
export const E2E_MEDIA = {
  id: 'e2e-photo-1',
  token: 'e2e-whatsapp-token',
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
};

export const FIXTURES_FILE = () => path.join(process.env.E2E_DATA_DIR ?? '', 'e2e-fixtures.json');

export function fixtures(): Fixtures {
  return JSON.parse(readFileSync(FIXTURES_FILE(), 'utf8')) as Fixtures;
}

export async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in (admins land on the overview, agents on their bookings), then opens /bookings. */
export async function signInToDashboard(page: Page, user: { email: string; password: string }) {
  await signIn(page, user);
  await expect(page.getByTestId('current-tenant')).toBeVisible();
  if (!page.url().endsWith('/bookings')) await page.goto('/bookings');
  await expect(page.getByRole('heading', { name: 'Bookings' })).toBeVisible();
}

/** REST calls with the tenant's API key, as an integrator would make them. */
export async function api(method: string, urlPath: string, body?: unknown) {
  const f = fixtures();
  const response = await fetch(`http://localhost:${process.env.E2E_PORT}/api/v1${urlPath}`, {
    method,
    headers: {
      Authorization: `Bearer ${f.apiKey}`,
      'X-Tenant-ID': f.tenantId,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Nothing widens the page at the current (phone) width once the layout has settled: charts and other
 * measured parts re-lay out a moment after a viewport change, so the width is polled, not read once.
 * On failure the message names the elements that stick out.
 */
export async function expectNoSidewaysScroll(page: Page) {
  const width = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await expect
    .poll(width, {
      timeout: 5_000,
      message: `page wider than the screen; widest elements: ${await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .map((el) => ({ el, right: el.getBoundingClientRect().right }))
          .filter((x) => x.right > window.innerWidth + 1)
          .sort((a, b) => b.right - a.right)
          .slice(0, 5)
          .map(
            (x) =>
              `${x.el.tagName.toLowerCase()}.${String(x.el.className).slice(0, 60)} (${Math.round(x.right)} px)`,
          )
          .join('; '),
      )}`,
    })
    .toBeLessThanOrEqual(0);
}
