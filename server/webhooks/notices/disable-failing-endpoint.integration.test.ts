import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createEndpoint } from '@/server/webhooks';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { disableIfFailing } from './disable-failing-endpoint';

// Called after every failed attempt: an endpoint far from the auto-disable rule (the common case)
// costs one read and no transaction; one that meets it is disabled, once.
let tenant: TestTenant;
beforeAll(async () => {
  process.env.WEBHOOK_DISABLE_AFTER_FAILURES = '3';
  process.env.WEBHOOK_DISABLE_AFTER = '0s';
  resetSettingsCache();
  tenant = await createTestTenant('disable rule');
});
afterAll(() => {
  delete process.env.WEBHOOK_DISABLE_AFTER_FAILURES;
  delete process.env.WEBHOOK_DISABLE_AFTER;
  resetSettingsCache();
});

/** What the database driver is asked to run while `work` runs (as the query-plan test captures it). */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded signature
  (pg.Client.prototype as any).query = function (config: any, ...rest: unknown[]) {
    seen.push(typeof config === 'string' ? config : (config?.text ?? ''));
    // biome-ignore lint/suspicious/noExplicitAny: forwarded as received
    return (original as any).call(this, config, ...rest);
  };
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

describe('auto-disable after a failed attempt', () => {
  it('reads once and opens no transaction while the endpoint is below the rule', async () => {
    const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
    const endpoint = await createEndpoint(ctx, { url: 'https://hooks.example.test/a', events: ['*'] });
    const db = forTenant(tenant.tenantId);
    await db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { failureStreak: 2, failureStreakSince: new Date(Date.now() - 60_000) },
    });
    let disabled: boolean | undefined;
    const statements = await statementsOf(async () => {
      disabled = await disableIfFailing(ctx, endpoint.id);
    });
    expect(disabled).toBe(false);
    expect(statements.filter((s) => /^\s*(begin|commit)\b/i.test(s))).toEqual([]);
    expect(statements).toHaveLength(1);

    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failureStreak: 3 } });
    expect(await disableIfFailing(ctx, endpoint.id)).toBe(true);
    expect(await disableIfFailing(ctx, endpoint.id)).toBe(false);
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ isActive: false, disabledReason: 'failing' });
  });
});
