// What PostgreSQL cannot store or an object must not take: a NUL character in a body, a query or a
// path id, and the keys __proto__, constructor and prototype at any depth, are refused (422 naming
// the field; 404 for a path id) and nothing is stored.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';
import { client } from '../support/helpers';

const suite = apiSuite();
const a = suite.tenant;

describe('NUL characters and reserved keys (findings 4 and 5)', () => {
  const booking = (extra: object = {}) => ({
    customer: { name: 'Nul Tester' },
    start_at: '2026-12-01T09:00:00Z',
    end_at: '2026-12-01T10:00:00Z',
    ...extra,
  });

  it('answers 422 naming the field for a NUL in a body, and stores nothing', async () => {
    const before = await db().booking.count({ where: { tenantId: a.tenantId } });
    const res = await a.admin('POST', '/bookings', { body: booking({ customer: { name: 'Ada\u0000' } }) });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'customer.name' })]);
    const inKey = await a.admin('POST', '/bookings', { body: booking({ metadata: { 'a\u0000': 1 } }) });
    expectProblemCode(inKey, 422, 'validation_failed');
    const login = await client(suite.url)('POST', '/auth/login', {
      body: { email: 'x@example.test', password: 'pw\u0000' },
    });
    expectProblemCode(login, 422, 'validation_failed');
    expect(await db().booking.count({ where: { tenantId: a.tenantId } })).toBe(before);
  });

  it('answers 422 for %00 in a query and 404 for %00 in a path id', async () => {
    expectProblemCode(
      await a.admin('GET', '/bookings?customer_email=a%00b@example.test'),
      422,
      'validation_failed',
    );
    expectProblemCode(await a.admin('GET', '/bookings?cursor=%00'), 422, 'validation_failed');
    expectProblemCode(await a.admin('GET', '/bookings/bkg_%00'), 404, 'not_found');
    expectProblemCode(await a.admin('POST', '/bookings/bkg_%00/confirm'), 404, 'not_found');
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuses the metadata key %s, at any depth',
    async (key) => {
      const raw = (metadata: string) => ({
        rawBody: `{"customer":{"name":"N"},"start_at":"2026-12-01T09:00:00Z","end_at":"2026-12-01T10:00:00Z","metadata":${metadata}}`,
        headers: { 'Content-Type': 'application/json' },
      });
      const top = await a.admin('POST', '/bookings', raw(`{"${key}":{"x":1}}`));
      expectProblemCode(top, 422, 'validation_failed');
      expect(top.body.errors[0].path).toBe(`metadata.${key}`);
      const nested = await a.admin('POST', '/bookings', raw(`{"deep":{"${key}":1}}`));
      expectProblemCode(nested, 422, 'validation_failed');
      expect(nested.body.errors[0].path).toBe(`metadata.deep.${key}`);
    },
  );
});
