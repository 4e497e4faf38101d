import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '@/server/db/client';
import { maintenanceDb } from '@/server/db/maintenance';
import { forTenant } from '@/server/db/tenant-scope';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createEndpoint } from '@/server/webhooks';
import { recordBookingEvents } from '@/test/support/domain-fixtures';
import { createTestTenant } from '@/test/support/helpers';
import { claimDue } from './claims';

// The worker's claims are fair: caps on what a tenant and an endpoint have in flight, and turns
// across tenants, whatever the backlog (docs/architecture.md, "Webhook delivery").
let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 6 });
});
afterAll(() => pool.end());
// Claims see every tenant's deliveries: each case ends with none pending.
afterEach(async () => {
  await maintenanceDb().delivery.updateMany({ where: { status: 'pending' }, data: { status: 'failed' } });
});

const LEASE = 60_000;

/** A tenant with `endpoints` endpoints and `events` events, each delivered to every endpoint. */
async function backlog(name: string, endpoints: number, events: number) {
  const tenant = await createTestTenant(name);
  const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
  const endpointIds: string[] = [];
  for (let i = 0; i < endpoints; i++) {
    endpointIds.push(
      (await createEndpoint(ctx, { url: `http://127.0.0.1:9/${name}/${i}`, events: ['*'] })).id,
    );
  }
  await recordBookingEvents(tenant.tenantId, events, { objectIdPrefix: `bkg_${name}` });
  return { tenantId: tenant.tenantId, endpointIds };
}

const count = <T>(items: T[], key: (item: T) => string) =>
  items.reduce<Record<string, number>>((acc, item) => {
    acc[key(item)] = (acc[key(item)] ?? 0) + 1;
    return acc;
  }, {});

describe('fair claims', () => {
  it("never put more of a tenant's or an endpoint's deliveries in flight than its cap", async () => {
    const a = await backlog('capped', 2, 10);
    const first = await claimDue(pool, 30, LEASE, { perTenant: 5, perEndpoint: 3 });
    expect(first).toHaveLength(5);
    const perEndpoint = count(first, (d) => d.endpointId);
    expect(Object.values(perEndpoint).every((n) => n <= 3)).toBe(true);
    // Both endpoints take turns: neither waits for the other's backlog.
    expect(Object.keys(perEndpoint).sort()).toEqual([...a.endpointIds].sort());
    // Everything the tenant may have in flight is: nothing more until an attempt ends.
    expect(await claimDue(pool, 30, LEASE, { perTenant: 5, perEndpoint: 3 })).toEqual([]);
    // A recorded attempt (here: the claim given back) makes room for exactly one more.
    await forTenant(a.tenantId).deliveryClaim.delete({ where: { deliveryId: first[0].id } });
    expect(await claimDue(pool, 30, LEASE, { perTenant: 5, perEndpoint: 3 })).toHaveLength(1);
  });

  it('take one delivery of each tenant in turn, oldest first, whatever the backlog', async () => {
    const big = await backlog('big', 1, 6);
    const small = await backlog('small', 1, 2);
    const claimed = await claimDue(pool, 4, LEASE, { perTenant: 10, perEndpoint: 10 });
    expect(claimed.map((d) => d.tenantId)).toEqual([
      big.tenantId,
      small.tenantId,
      big.tenantId,
      small.tenantId,
    ]);
    // Within a tenant, oldest first.
    const bigOnes = claimed.filter((d) => d.tenantId === big.tenantId).map((d) => d.id);
    expect(bigOnes).toEqual([...bigOnes].sort());
  });

  it('hold the caps across concurrent claims of several workers', async () => {
    const a = await backlog('concurrent', 4, 10);
    const claims = await Promise.all(
      [1, 2, 3, 4].map(() => claimDue(pool, 30, LEASE, { perTenant: 6, perEndpoint: 2 })),
    );
    const all = claims.flat();
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
    expect(all).toHaveLength(6);
    expect(Object.values(count(all, (d) => d.endpointId)).every((n) => n <= 2)).toBe(true);
    expect(all.every((d) => d.tenantId === a.tenantId)).toBe(true);
  });
});
