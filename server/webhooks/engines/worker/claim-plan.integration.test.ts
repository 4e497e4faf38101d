import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '@/server/db/client';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createEndpoint } from '@/server/webhooks';
import { createTestTenant, type TestTenant } from '@/test/helpers';
import { claimLeaseMs } from './queue';
import { claimDeliveries } from './sql/claim-deliveries';

// Claims run one at a time across every worker, so a slow claim slows every drain. The planner
// counts on one claimed row; joined flat, it could read the tenant's every event for each claimed
// delivery when the table's statistics say the tenant has few (a burst of new events, before
// autovacuum's next analyze). This file's database keeps those statistics stale on purpose.
let tenant: TestTenant;
let client: pg.Client;

interface PlanNode {
  'Relation Name'?: string;
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
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, format json) ${claimDeliveries.text}`,
        [30, claimLeaseMs(10_000), 30, 30],
      );
      const root = rows[0]['QUERY PLAN'][0].Plan;
      const eventScans = nodesOn('events', root);
      expect(eventScans.length).toBeGreaterThan(0);
      for (const scan of eventScans) {
        // One event per loop: the lookup by key (Actual Rows is per loop).
        expect(scan['Actual Rows'], JSON.stringify(scan)).toBeLessThanOrEqual(1);
      }
      // …and the claim took all 30.
      const { rows: claimed } = await client.query(
        `select count(*)::int as n from delivery_claims where tenant_id = $1::uuid and locked_until > now()`,
        [tenant.tenantId],
      );
      expect(claimed[0].n).toBe(30);
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
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, format json) ${claimDeliveries.text}`,
        [20, claimLeaseMs(10_000), 1000, 1000],
      );
      const root = rows[0]['QUERY PLAN'][0].Plan;
      // The probes of each endpoint's due deliveries (the loose scan over endpoints probes with `>`).
      const probes = nodesOn('deliveries', root).filter((n) =>
        /\(endpoint_id = /.test(n['Index Cond'] ?? ''),
      );
      expect(probes.length, JSON.stringify(root)).toBeGreaterThan(0);
      for (const probe of probes) expect(probe['Actual Rows'], JSON.stringify(probe)).toBeLessThanOrEqual(2);
      const { rows: claimed } = await client.query(
        `select count(*)::int as n from delivery_claims where tenant_id = $1::uuid and locked_until > now()`,
        [tenant.tenantId],
      );
      expect(claimed[0].n).toBe(20);
    } finally {
      await client.query('rollback');
    }
  });
});
