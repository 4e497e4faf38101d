import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '@/server/db/client';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createEndpoint } from '@/server/webhooks';
import { recordAttempts } from '@/server/webhooks/attempt/sql/record-attempts';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { claimLeaseMs } from './claims';
import { claimDeliveries } from './sql/claim-deliveries';

// Claims run one at a time across every worker, so a slow claim slows every drain. The planner
// counts on one claimed row; joined flat, it could read the tenant's every event for each claimed
// delivery when the table's statistics say the tenant has few (a burst of new events, before
// autovacuum's next analyze). This file's database keeps those statistics stale on purpose.
let tenant: TestTenant;
let client: pg.Client;

interface PlanNode {
  'Node Type'?: string;
  Filter?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function nodesOn(relation: string, node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  if (node['Relation Name'] === relation) out.push(node);
  for (const child of node.Plans ?? []) nodesOn(relation, child, out);
  return out;
}

/** The plan `statement` ran with (EXPLAIN ANALYZE: it runs, inside the test's transaction). */
async function planOf(statement: string, values: unknown[]): Promise<PlanNode> {
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `explain (analyze, format json) ${statement}`,
    values,
  );
  return rows[0]['QUERY PLAN'][0].Plan;
}

/** The tenant's live claims. */
async function liveClaims(tenantId: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from delivery_claims where tenant_id = $1::uuid and locked_until > now()`,
    [tenantId],
  );
  return rows[0].n;
}

beforeAll(async () => {
  tenant = await createTestTenant('claim-plan');
  client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  await client.query('alter table events set (autovacuum_enabled = false)');
  await client.query('analyze events'); // statistics taken before the burst below
});
afterAll(async () => {
  await client.query('alter table events reset (autovacuum_enabled)');
  await client.end();
});

/**
 * A new tenant's burst before autovacuum's next analyze: 3,000 due deliveries to one endpoint that
 * the statistics know nothing of, inside a transaction `run` sees (rolled back after).
 */
async function withNewTenantBurst(
  name: string,
  run: (burst: { tenantId: string; endpointId: string; deliveryId: (n: number) => string }) => Promise<void>,
) {
  const { tenantId } = await createTestTenant(name);
  const endpoint = await createEndpoint(operationContext(tenantId, SYSTEM_ACTOR), {
    url: `http://127.0.0.1:9/${name}`,
    events: ['booking.*'],
  });
  const deliveryId = (n: number) => `dlv_${name}_${String(n).padStart(5, '0')}`;
  await client.query('analyze deliveries');
  await client.query('begin');
  try {
    await client.query(
      `insert into events (id, tenant_id, type, payload, created_at)
       values ($2, $1::uuid, 'booking.confirmed', '{}'::jsonb, now())`,
      [tenantId, `evt_${name}`],
    );
    await client.query(
      `insert into deliveries (id, tenant_id, event_id, event_type, object_id, endpoint_id, next_attempt_at)
       select $3 || lpad(n::text, 5, '0'), $1::uuid, $4, 'booking.confirmed', 'bkg_' || n, $2,
         now() - interval '1 second'
       from generate_series(1, 3000) n`,
      [tenantId, endpoint.id, `dlv_${name}_`, `evt_${name}`],
    );
    await run({ tenantId, endpointId: endpoint.id, deliveryId });
  } finally {
    await client.query('rollback');
  }
}

describe('a claim', () => {
  it("reads each claimed delivery's event by its key, however many events its tenant has", async () => {
    const endpoint = await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
      url: 'http://127.0.0.1:9/hook',
      events: ['booking.*'],
    });
    // 1,200 events of the tenant, the newest 30 with a due delivery each.
    await client.query(
      `insert into events (id, tenant_id, type, payload, created_at)
       select 'evt_plan_' || lpad(n::text, 5, '0'), $1::uuid, 'booking.confirmed', '{}'::jsonb, now()
       from generate_series(1, 1200) n`,
      [tenant.tenantId],
    );
    await client.query(
      `insert into deliveries (id, tenant_id, event_id, event_type, endpoint_id, next_attempt_at)
       select 'dlv_plan_' || lpad(n::text, 5, '0'), $1::uuid, 'evt_plan_' || lpad(n::text, 5, '0'),
         'booking.confirmed', $2, now() - interval '1 second'
       from generate_series(1171, 1200) n`,
      [tenant.tenantId, endpoint.id],
    );

    await client.query('begin');
    try {
      const root = await planOf(claimDeliveries.text, [30, claimLeaseMs(10_000), 30, 30]);
      const eventScans = nodesOn('events', root);
      expect(eventScans.length).toBeGreaterThan(0);
      for (const scan of eventScans) {
        // One event per loop: the lookup by key (Actual Rows is per loop).
        expect(scan['Actual Rows'], JSON.stringify(scan)).toBeLessThanOrEqual(1);
      }
      // …and the claim took all 30.
      expect(await liveClaims(tenant.tenantId)).toBe(30);
    } finally {
      await client.query('rollback');
    }
  });
  it("reads no more of an endpoint's backlog than its share of the claim", async () => {
    // 10 endpoints with 30 due deliveries each, caps too high to bind: a claim of 20 goes round the
    // endpoints twice, so it needs each one's 2 oldest, not all 30.
    const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
    const endpointIds: string[] = [];
    for (let i = 0; i < 10; i++)
      endpointIds.push(
        (await createEndpoint(ctx, { url: `http://127.0.0.1:9/share/${i}`, events: ['booking.*'] })).id,
      );
    await client.query('begin');
    try {
      await client.query(
        `insert into events (id, tenant_id, type, payload, created_at)
         select 'evt_share_' || n, $1::uuid, 'booking.confirmed', '{}'::jsonb, now() from generate_series(1, 30) n`,
        [tenant.tenantId],
      );
      await client.query(
        `insert into deliveries (id, tenant_id, event_id, event_type, endpoint_id, next_attempt_at)
         select 'dlv_share_' || n || '_' || e.ord, $1::uuid, 'evt_share_' || n, 'booking.confirmed', e.id,
           now() - interval '1 second'
         from generate_series(1, 30) n, unnest($2::text[]) with ordinality as e(id, ord)`,
        [tenant.tenantId, endpointIds],
      );
      // Whatever way the planner would join the claims: with statistics that expect next to nothing
      // due (a burst, or a million other deliveries), it hashed every due delivery of each endpoint
      // against them and so read the whole backlog.
      await client.query('set local enable_nestloop = off');
      const root = await planOf(claimDeliveries.text, [20, claimLeaseMs(10_000), 1000, 1000]);
      // The probes of each endpoint's due deliveries (the loose scan over endpoints probes with `>`).
      const probes = nodesOn('deliveries', root).filter((n) =>
        /\(endpoint_id = /.test(n['Index Cond'] ?? ''),
      );
      expect(probes.length, JSON.stringify(root)).toBeGreaterThan(0);
      for (const probe of probes) expect(probe['Actual Rows'], JSON.stringify(probe)).toBeLessThanOrEqual(2);
      expect(await liveClaims(tenant.tenantId)).toBe(20);
    } finally {
      await client.query('rollback');
    }
  });
  it('records an attempt on its delivery found by key, however few rows the statistics give its tenant', () =>
    withNewTenantBurst('record-plan', async (burst) => {
      const records = JSON.stringify([
        {
          id: 'att_record_plan',
          tenant_id: burst.tenantId,
          delivery_id: burst.deliveryId(1500),
          endpoint_id: burst.endpointId,
          attempt_number: 1,
          started_at: new Date().toISOString(),
          succeeded: true,
          response_status: 200,
          latency_ms: 1,
          response_excerpt: '',
          error: null,
          status: 'succeeded',
          next_attempt_at: null,
          notice: false,
        },
      ]);
      const root = await planOf(recordAttempts.text, [records]);
      const reads = nodesOn('deliveries', root).filter((n) => n['Node Type']?.endsWith('Scan'));
      expect(reads.length, JSON.stringify(root)).toBeGreaterThan(0);
      // By its primary key alone: with the tenant's rows missing from the statistics, a tenant index
      // looks free to the planner, and (tenant_id, object_id) walked the tenant's every delivery.
      for (const read of reads) expect(read['Index Name'], JSON.stringify(read)).toBe('deliveries_pkey');
    }));

  it('claims by key, however few rows the statistics give the tenant', () =>
    withNewTenantBurst('claim-stale', async (burst) => {
      // Some in flight already, so the count of what is in flight has claims to look up.
      await client.query(
        `insert into delivery_claims (delivery_id, tenant_id, endpoint_id, locked_until)
         select id, tenant_id, endpoint_id, now() + interval '1 minute' from deliveries
         where tenant_id = $1::uuid order by id limit 10`,
        [burst.tenantId],
      );
      const root = await planOf(claimDeliveries.text, [20, claimLeaseMs(10_000), 1000, 1000]);
      // The queue's index serves the scans over endpoints and each endpoint's due deliveries; the
      // reads of given deliveries (the row locks, the count of what is in flight) are by key.
      const reads = nodesOn('deliveries', root).filter((n) => n['Node Type']?.endsWith('Scan'));
      expect(
        reads.map((n) => n['Node Type']),
        JSON.stringify(root),
      ).not.toContain('Seq Scan');
      for (const read of reads) {
        // A bitmap scan names its index on the node below it.
        const index = read['Node Type'] === 'Bitmap Heap Scan' ? read.Plans?.[0] : read;
        const conditions = `${index?.['Index Cond'] ?? ''} ${read.Filter ?? ''}`;
        if (/\bid = (ANY|c\.delivery_id)/.test(conditions)) {
          expect(index?.['Index Name'], JSON.stringify(read)).toBe('deliveries_pkey');
        }
      }
    }));
});
