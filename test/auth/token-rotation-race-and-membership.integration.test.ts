// Tokens under pressure: of two parallel refreshes with one refresh token exactly one wins, and the
// reuse revokes the winner's new token too; an access token follows its membership (a role change,
// a removal) from the next request.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { createUser } from '@/server/domain/tenants';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';
import { client } from '../support/helpers';

const suite = apiSuite();
const a = suite.tenant;

describe('refresh tokens under a race (finding 2)', () => {
  it('gives exactly one 200 to two parallel refreshes, and the reuse revokes the winner too, every time', async () => {
    const email = `racer-${randomUUID()}@example.test`;
    const password = 'a long enough password';
    await createUser({ tenantId: a.tenantId, email, password, role: 'agent' });
    const anon = client(suite.url);
    for (let round = 0; round < 30; round++) {
      const login = await anon('POST', '/auth/login', { body: { email, password } });
      const token = login.body.refresh_token;
      const [x, y] = await Promise.all([
        anon('POST', '/auth/refresh', { body: { refresh_token: token } }),
        anon('POST', '/auth/refresh', { body: { refresh_token: token } }),
      ]);
      expect([x.status, y.status].sort()).toEqual([200, 401]);
      const winner = x.status === 200 ? x : y;
      const next = await anon('POST', '/auth/refresh', {
        body: { refresh_token: winner.body.refresh_token },
      });
      expect(next.status, `round ${round}: the winner's new refresh token must be revoked`).toBe(401);
    }
  });
});

describe('access tokens follow the membership (finding 8)', () => {
  it('stops working once the membership is removed, and follows a role change', async () => {
    const email = `member-${randomUUID()}@example.test`;
    const password = 'a long enough password';
    const { userId } = await createUser({ tenantId: a.tenantId, email, password, role: 'admin' });
    const login = await client(suite.url)('POST', '/auth/login', { body: { email, password } });
    const api = client(suite.url, { tenantId: a.tenantId, token: login.body.access_token });
    expect((await api('GET', '/api-keys')).status).toBe(200);

    const membership = { tenantId_userId: { tenantId: a.tenantId, userId } };
    await db().membership.update({ where: membership, data: { role: 'agent' } });
    expectProblemCode(await api('GET', '/api-keys'), 403, 'forbidden');
    expect((await api('GET', '/bookings')).status).toBe(200);

    await db().membership.delete({ where: membership });
    expectProblemCode(await api('GET', '/bookings'), 401, 'unauthenticated');
  });
});
