import { LoginInput, RefreshInput, Session } from '@/server/auth/schemas';
import { login, logout, refresh } from '@/server/auth/sessions';
import { json, noContent, publicRoute } from '@/server/http/route';

export const authRoutes = [
  publicRoute({
    method: 'POST',
    path: '/auth/login',
    operationId: 'login',
    tag: 'Authentication',
    summary: 'Sign in with email and password',
    description:
      'Returns a 30-minute access token and a 30-day rotating refresh token. X-Tenant-ID is optional: it ' +
      'picks the tenant for users of several tenants. Attempts are counted before the password is checked ' +
      'and limited per email and client address (10 per 15 minutes), per email (100) and per client ' +
      'address (50); a success does not count. Past a limit: 429 `rate_limited` with `Retry-After`.',
    body: LoginInput,
    responses: { 200: { description: 'Signed in', schema: Session } },
    errors: [400, 401, 403, 422, 429],
    handler: async ({ body, tenantHeader, ip }) =>
      json(200, await login({ email: body.email, password: body.password, tenantHeader, ip })),
  }),
  publicRoute({
    method: 'POST',
    path: '/auth/refresh',
    operationId: 'refreshSession',
    tag: 'Authentication',
    summary: 'Exchange a refresh token for a new access token and a rotated refresh token',
    description:
      'The presented refresh token stops working. Presenting an already-used token revokes its whole ' +
      'family (401 refresh_token_reused), and every access token of the person issued until then answers ' +
      '401 from the next request (whoever holds the copy may hold those too).',
    body: RefreshInput,
    responses: { 200: { description: 'New tokens', schema: Session } },
    errors: [400, 401, 403, 422],
    handler: async ({ body, tenantHeader }) =>
      json(200, await refresh({ refreshToken: body.refresh_token, tenantHeader })),
  }),
  publicRoute({
    method: 'POST',
    path: '/auth/logout',
    operationId: 'logout',
    tag: 'Authentication',
    summary: 'Revoke a refresh token and its whole family',
    body: RefreshInput,
    responses: { 204: { description: 'Revoked (also for an unknown token)' } },
    errors: [400, 403, 422],
    handler: async ({ body, tenantHeader }) => {
      await logout({ refreshToken: body.refresh_token, tenantHeader });
      return noContent();
    },
  }),
];
