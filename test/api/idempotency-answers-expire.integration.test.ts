// Stored Idempotency-Key answers (which can hold a one-time secret) are deleted by a periodic job once
// they expire; unexpired ones stay.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import { PERIODIC_JOBS } from '@/server/runtime/jobs';
import { apiSuite } from '../support/harness';

beforeAll(() => {
  Object.assign(process.env, { API_RATE_LIMIT_PER_SECOND: '0' });
  resetSettingsCache();
});
afterAll(() => {
  delete process.env.API_RATE_LIMIT_PER_SECOND;
  resetSettingsCache();
});
const suite = apiSuite({ tenant: false });

describe('security finding 7: idempotency answers keep one-time secrets forever', () => {
  it('a periodic job deletes expired stored answers; unexpired ones stay', async () => {
    const t = await suite.newTenant('idempotency-retention');
    const expiredKey = `expired-${randomBytes(4).toString('hex')}`;
    const liveKey = `live-${randomBytes(4).toString('hex')}`;
    for (const key of [expiredKey, liveKey]) {
      const created = await t.admin('POST', '/api-keys', {
        body: { name: key },
        headers: { 'Idempotency-Key': key },
      });
      expect(created.status, created.text).toBe(201);
    }
    await pgPool().query(
      "update idempotency_keys set expires_at = now() - interval '1 second' where key = $1",
      [expiredKey],
    );
    // Every periodic job of the registry, as the worker's timer loop runs them.
    for (const job of PERIODIC_JOBS) await job.run();
    const { rows } = await pgPool().query<{ key: string }>(
      'select key from idempotency_keys where tenant_id = $1 order by key',
      [t.tenantId],
    );
    expect(rows.map((r) => r.key)).toEqual([liveKey]);
  });
});
