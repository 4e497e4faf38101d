// A password reset, or a refresh token presented a second time (someone holds a copy), ends every
// access token of the person issued before it; tokens issued after work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { personWithResetLink, publicCaller } from '../support/account-fixtures';
import { apiSuite } from '../support/harness';
import { createTestUser } from '../support/helpers';

beforeAll(() => {
  Object.assign(process.env, { API_RATE_LIMIT_PER_SECOND: '0' });
  resetSettingsCache();
});
afterAll(() => {
  delete process.env.API_RATE_LIMIT_PER_SECOND;
  resetSettingsCache();
});
const suite = apiSuite({ tenant: false });

function signIn(email: string, password: string, tenantId?: string) {
  return suite.api('POST', '/auth/login', {
    body: { email, password },
    ...(tenantId ? { headers: { 'X-Tenant-ID': tenantId } } : {}),
  });
}

describe('security finding 6: access tokens outlive a password reset or sign-out everywhere', () => {
  it('a password reset ends the access tokens issued before it (401); new ones work', async () => {
    const t = await suite.newTenant('tokens-reset');
    const person = await personWithResetLink(t);
    const session = await signIn(person.email, person.password);
    const asPerson = (token: string) => suite.api('GET', '/bookings', { tenantId: t.tenantId, token });
    expect((await asPerson(session.body.access_token)).status).toBe(200);

    await publicCaller().links.completePasswordReset({ token: person.token, password: 'the new password' });
    const old = await asPerson(session.body.access_token);
    expect([old.status, old.body.code]).toEqual([401, 'unauthenticated']);

    const fresh = await signIn(person.email, 'the new password');
    expect((await asPerson(fresh.body.access_token)).status).toBe(200);
  });

  it('a reused refresh token (someone holds a copy) ends the access tokens issued before it', async () => {
    const t = await suite.newTenant('tokens-reuse');
    const person = await createTestUser(t.tenantId, 'agent');
    const session = await signIn(person.email, person.password);
    const asPerson = (token: string) => suite.api('GET', '/bookings', { tenantId: t.tenantId, token });
    const rotated = await suite.api('POST', '/auth/refresh', {
      body: { refresh_token: session.body.refresh_token },
    });
    expect((await asPerson(rotated.body.access_token)).status).toBe(200);
    const reused = await suite.api('POST', '/auth/refresh', {
      body: { refresh_token: session.body.refresh_token },
    });
    expect(reused.status).toBe(401);
    for (const token of [session.body.access_token, rotated.body.access_token])
      expect((await asPerson(token)).status).toBe(401);
    const again = await signIn(person.email, person.password);
    expect((await asPerson(again.body.access_token)).status).toBe(200);
  });
});
