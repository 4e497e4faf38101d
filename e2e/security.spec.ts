// Security checks that need the real build: the login page's redirect, the /api/trpc route's limits
// and the pages' Content-Security-Policy. The same rules without a build: test/auth/,
// test/dashboard/trpc-body-and-batch-limits.integration.test.ts and server/trpc/callback-url.test.ts.
import { type BrowserContext, expect, type Page, type Response, test } from '@playwright/test';
import { api, fixtures, signInToDashboard } from './fixtures';

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

test.describe('security finding 8: no script restrictions on the dashboard or /docs', () => {
  /** Every CSP violation the page reports, from the event and from the console. */
  async function watchViolations(context: BrowserContext, page: Page): Promise<string[]> {
    const seen: string[] = [];
    await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
      seen.push(text);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __reportCspViolation(text: string): void })
          .__reportCspViolation;
        report(`${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
      });
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text()))
        seen.push(`${page.url()}: ${message.text()}`);
    });
    return seen;
  }

  function expectNonceCsp(response: Response | null, path: string): string {
    expect(response, path).not.toBeNull();
    const csp = response?.headers()['content-security-policy'] ?? '';
    const nonce = /'nonce-([A-Za-z0-9+/=_-]{16,})'/.exec(csp)?.[1];
    expect(nonce, `${path}: ${csp}`).toBeTruthy();
    for (const directive of [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
    ])
      expect(csp, path).toContain(directive);
    expect(csp, path).not.toContain('unsafe-eval');
    return nonce as string;
  }

  test('every dashboard page and /docs carries a nonce CSP, reports no violation and still works', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const f = fixtures();
    const endpoint = await api('POST', '/webhooks', { url: 'http://127.0.0.1:9/csp', events: ['booking.*'] });
    const conversation = await api('POST', '/conversations', { channel: 'web', contact: { name: 'Csp' } });
    const invitation = await api('POST', '/invitations', {
      email: 'csp-invitee@example.test',
      role: 'agent',
    });
    const members = await api('GET', '/members?limit=100');
    const agent = (members.body.data as { user_id: string; email: string }[]).find(
      (m) => m.email === f.agent.email,
    );
    const reset = await api('POST', `/members/${agent?.user_id}/password-reset`);
    const resource = await api('POST', '/resources', {
      name: 'Csp room',
      time_zone: 'UTC',
      weekly_hours: {},
    });
    for (const created of [endpoint, conversation, invitation, reset, resource])
      expect(created.status).toBe(201);

    // Signed out: the public pages.
    const visitor = await browser.newContext();
    const publicPage = await visitor.newPage();
    const publicViolations = await watchViolations(visitor, publicPage);
    const docs = await publicPage.goto('/docs');
    expectNonceCsp(docs, '/docs');
    const sidebar = publicPage.getByRole('complementary', { name: 'Sidebar for Switchboard API' });
    await expect(sidebar).toBeVisible({ timeout: 30_000 });
    await sidebar.getByRole('button', { name: 'Open Group - Bookings' }).click();
    await sidebar.getByRole('link', { name: /Create a booking \(starts pending\)/ }).click();
    await expect(
      publicPage.getByRole('heading', { name: 'Create a booking (starts pending)' }),
    ).toBeVisible();

    expectNonceCsp(await publicPage.goto(new URL(invitation.body.url).pathname), '/invite');
    // The invitation is looked up over tRPC, and the form checks the two passwords in the browser.
    await expect(publicPage.getByText(`You are invited to ${f.tenantName}`)).toBeVisible();
    await publicPage.getByLabel('Your name').fill('Csp Check');
    await publicPage.getByLabel('Choose a password').fill('one password');
    await publicPage.getByLabel('Repeat the password').fill('another password');
    await publicPage.getByRole('button', { name: 'Join the team' }).click();
    await expect(publicPage.getByText('The two passwords differ.')).toBeVisible();

    expectNonceCsp(await publicPage.goto(new URL(reset.body.url).pathname), '/reset-password');
    await expect(publicPage.getByLabel('New password', { exact: true })).toBeVisible();

    const login = await publicPage.goto('/login');
    const firstNonce = expectNonceCsp(login, '/login');
    expect(expectNonceCsp(await publicPage.goto('/login'), '/login'), 'a fresh nonce per request').not.toBe(
      firstNonce,
    );
    // Signing in is JavaScript (next-auth's client) all the way.
    await publicPage.getByLabel('Email').fill(f.admin.email);
    await publicPage.getByLabel('Password').fill(f.admin.password);
    await publicPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(publicPage.getByTestId('current-tenant')).toBeVisible();
    await visitor.close();

    // Signed in: every dashboard page.
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations = await watchViolations(context, page);
    await signInToDashboard(page, f.admin);
    for (const path of [
      '/',
      '/events',
      '/bookings',
      '/conversations',
      `/conversations/${conversation.body.id}`,
      '/payments',
      '/settings/webhooks',
      `/settings/webhooks/${endpoint.body.id}`,
      '/settings/api-keys',
      '/settings/payments',
      '/settings/team',
      '/settings/audit-log',
      '/settings/resources',
      `/settings/resources/${resource.body.id}`,
      '/settings/services',
    ]) {
      expectNonceCsp(await page.goto(path), path);
      await expect(page.getByTestId('current-tenant'), path).toBeVisible();
      await page.waitForLoadState('networkidle');
    }
    // Still interactive: a key is created (a tRPC mutation from the browser).
    await page.goto('/settings/api-keys');
    await page.getByLabel('Name').fill('csp check');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByRole('region', { name: /New API key/ }).getByTestId('secret-value');
    await expect(secret).toHaveText(/^sk_live_/);
    await page.getByRole('button', { name: 'Done' }).click();
    // Client-side navigation through the menu.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();

    // The tenant picker, as the user of two tenants.
    const multi = await browser.newContext();
    const picker = await multi.newPage();
    const pickerViolations = await watchViolations(multi, picker);
    await picker.goto('/login');
    await picker.getByLabel('Email').fill(f.multi.email);
    await picker.getByLabel('Password').fill(f.multi.password);
    await picker.getByRole('button', { name: 'Sign in' }).click();
    await expect(picker).toHaveURL(/\/select-tenant$/);
    expectNonceCsp(await picker.reload(), '/select-tenant');
    await picker.getByRole('button', { name: new RegExp(f.otherTenantName) }).click();
    await expect(picker.getByTestId('current-tenant')).toContainText(f.otherTenantName);

    expect([...publicViolations, ...violations, ...pickerViolations]).toEqual([]);
    await context.close();
    await multi.close();
  });
});
