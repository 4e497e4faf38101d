// Regression tests of the security audit's findings (issue 21) that need the real build: the login
// page's redirect and the /api/trpc route's limits. Each failed on the code before its fix; the rest
// of each finding is in test/security-findings.integration.test.ts and server/trpc/callback-url.test.ts.
import { expect, test } from '@playwright/test';
import { fixtures } from './fixtures';

const ORIGIN = `http://localhost:${process.env.E2E_PORT}`;

test.describe('security finding 4: open redirect after sign-in', () => {
  for (const hostile of ['/.//evil.example/', '/./\\evil.example/', 'https://evil.example/']) {
    test(`signing in with callbackUrl=${hostile} lands on the dashboard`, async ({ page }) => {
      // Were the browser sent away, it would land here (and stay off this site).
      await page.route(
        (url) => url.hostname === 'evil.example',
        (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Not Switchboard</h1>' }),
      );
      const f = fixtures();
      await page.goto(`/login?callbackUrl=${encodeURIComponent(hostile)}`);
      await page.getByLabel('Email').fill(f.admin.email);
      await page.getByLabel('Password').fill(f.admin.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(`${ORIGIN}/`);
      await expect(page.getByTestId('current-tenant')).toBeVisible();
    });
  }

  test('a callbackUrl of this site is still followed', async ({ page }) => {
    const f = fixtures();
    await page.goto('/settings/api-keys');
    await expect(page).toHaveURL(/\/login\?callbackUrl=/);
    await page.getByLabel('Email').fill(f.admin.email);
    await page.getByLabel('Password').fill(f.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
    expect(page.url()).toBe(`${ORIGIN}/settings/api-keys`);
  });
});

test.describe('security finding 5: unbounded tRPC bodies and batches', () => {
  test('/api/trpc answers a body over 1 MiB with 413 in tRPC’s error shape', async ({ request }) => {
    const response = await request.post('/api/trpc/links.acceptInvitation', {
      data: { token: 'x'.repeat(43), password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(response.status()).toBe(413);
    const body = (await response.json()) as { error: { data: Record<string, unknown> } };
    expect(body.error.data).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      httpStatus: 413,
      apiCode: 'payload_too_large',
    });
  });

  test('/api/trpc takes at most 20 calls in one batch (21: 400)', async ({ request }) => {
    const batch = (n: number) => {
      const paths = Array.from({ length: n }, () => 'links.invitation').join(',');
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { token: 'x'.repeat(43) }]));
      return request.get(`/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`);
    };
    const twenty = await batch(20);
    expect(twenty.status()).toBe(200);
    expect(await twenty.json()).toHaveLength(20);
    const many = await batch(21);
    expect(many.status()).toBe(400);
    // Refused before any call runs: one error for the request.
    const refused = (await many.json()) as { error: { message: string; data: { code: string } } };
    expect(refused.error.data.code).toBe('BAD_REQUEST');
    expect(refused.error.message).toMatch(/batch/i);
  });
});
