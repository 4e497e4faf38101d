// GET|PATCH /tenant: the origins allowed to frame the booking pages. Admins only; each origin exactly
// as a browser writes it (https, lower-case host, no default port, no path), else 422 and nothing
// changes; the change is audited.
import { describe, expect, it } from 'vitest';
import { pgPool } from '@/server/db/pool';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';

const { tenant: a, other: b } = apiSuite({ agent: true, other: true });

describe('GET|PATCH /tenant', () => {
  it('starts with no origin, sets them (kept once each), and audits the change', async () => {
    const first = await a.admin('GET', '/tenant');
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ id: a.tenantId, name: 'A', booking_page: { frame_origins: [] } });
    const origins = ['https://www.clinic.example', 'https://shop.example:8443', 'https://www.clinic.example'];
    const res = await a.admin('PATCH', '/tenant', { body: { booking_page: { frame_origins: origins } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.booking_page.frame_origins).toEqual([
      'https://www.clinic.example',
      'https://shop.example:8443',
    ]);
    expect((await a.admin('GET', '/tenant')).body).toEqual(res.body);
    expect((await b.admin('GET', '/tenant')).body.booking_page.frame_origins).toEqual([]);
    const { rows } = await pgPool().query(
      "select action, target_type, target_id from audit_log where tenant_id = $1 and action = 'tenant.updated'",
      [a.tenantId],
    );
    expect(rows).toEqual([{ action: 'tenant.updated', target_type: 'tenant', target_id: a.tenantId }]);
  });

  it.each([
    'http://www.clinic.example',
    'https://www.clinic.example/',
    'https://www.clinic.example/book',
    'https://WWW.clinic.example',
    'https://www.clinic.example:443',
    'https://user@www.clinic.example',
    'https://*.clinic.example',
    "https://x.example 'unsafe-inline'",
    'https://x.example;script-src *',
    '*',
    '',
  ])('refuses %j with 422, changing nothing', async (origin) => {
    const before = (await a.admin('GET', '/tenant')).body;
    const res = await a.admin('PATCH', '/tenant', { body: { booking_page: { frame_origins: [origin] } } });
    expectProblemCode(res, 422, 'validation_failed');
    expect(res.body.errors[0].path).toBe('booking_page.frame_origins[0]');
    expect((await a.admin('GET', '/tenant')).body).toEqual(before);
  });

  it('is for admins: an agent gets 403 forbidden on both', async () => {
    expectProblemCode(await a.agent('GET', '/tenant'), 403, 'forbidden');
    expectProblemCode(
      await a.agent('PATCH', '/tenant', { body: { booking_page: { frame_origins: [] } } }),
      403,
      'forbidden',
    );
  });
});
