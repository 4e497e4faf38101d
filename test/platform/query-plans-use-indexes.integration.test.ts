// Every hot query plans onto an index, never a sequential scan, on a database where other tenants'
// rows make the planner choose (thousands of rows, ANALYZEd). The statements are the code's own:
// Prisma's are captured from the driver while the real domain functions run (so a changed query is
// what gets planned), and the worker's raw SQL is imported. Each is planned with its real parameter
// values (EXPLAIN, not executed), and generically: every statement is named (server/db/statement-names.ts)
// and PostgreSQL may switch a named statement to its generic plan after five runs.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOtherTenants, otherTenantId } from '@/scripts/lib/other-tenants';
import { signAccessToken } from '@/server/auth/jwt';
import { authenticate } from '@/server/auth/principal';
import { db } from '@/server/db/client';
import { deleteExpiredIdempotencyKeys } from '@/server/db/idempotency-retention';
import { transaction } from '@/server/db/unit-of-work';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { listBookings } from '@/server/domain/bookings/list-bookings';
import { BookingListQuery } from '@/server/domain/bookings/schemas';
import { type OperationContext, operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { endpointsNeedingAttention } from '@/server/domain/overview/get-overview';
import { createTenantWithAdmin } from '@/server/domain/tenants';
import { listEvents } from '@/server/events/list-events';
import { exampleObject } from '@/server/events/payloads';
import { deleteExpiredEvents } from '@/server/events/retention';
import { withIdempotency } from '@/server/http/idempotency';
import { newId } from '@/server/lib/ids';
import { claimLeaseMs } from '@/server/runtime/deliveries/claims';
import { deliveryRelay } from '@/server/runtime/deliveries/relay';
import { claimDeliveries } from '@/server/runtime/deliveries/sql/claim-deliveries';
import { relayPass } from '@/server/runtime/relay';
import { claimTimers } from '@/server/runtime/timers/sql/claim-timers';
import { nextTimer } from '@/server/runtime/timers/sql/next-timer';
import { recordAttempts } from '@/server/webhooks/attempt/sql/record-attempts';
import { endpointDeliveryStats, tenantDeliveryStats } from '@/server/webhooks/deliveries/delivery-stats';
import { listDeliveries } from '@/server/webhooks/deliveries/list-deliveries';
import { recoverDeliveries } from '@/server/webhooks/deliveries/recover-deliveries';
import { createEndpoint } from '@/server/webhooks/endpoints/create-endpoint';
import { recordEvent } from '@/server/webhooks/outbox';

interface Statement {
  text: string;
  values: unknown[];
}

// The driver's queries while `run` runs: what Prisma (through @prisma/adapter-pg) sends.
let capturing: Statement[] | null = null;
const originalQuery = pg.Client.prototype.query;
// biome-ignore lint/suspicious/noExplicitAny: pg's overloaded signature
(pg.Client.prototype as any).query = function (config: unknown, values: unknown, ...rest: unknown[]) {
  if (capturing) {
    if (typeof config === 'string')
      capturing.push({ text: config, values: Array.isArray(values) ? values : [] });
    else if (config && typeof config === 'object' && 'text' in config) {
      const c = config as { text: string; values?: unknown[] };
      capturing.push({ text: c.text, values: c.values ?? (Array.isArray(values) ? values : []) });
    }
  }
  // biome-ignore lint/suspicious/noExplicitAny: forwarded as received
  return (originalQuery as any).call(this, config, values, ...rest);
};

async function captured(run: () => Promise<unknown>): Promise<Statement[]> {
  capturing = [];
  try {
    await run();
    return capturing.filter((s) => /^\s*(with|select|insert|update|delete)\b/i.test(s.text));
  } finally {
    capturing = null;
  }
}

interface Scan {
  node: string;
  relation?: string;
  index?: string;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function scansOf(node: PlanNode, out: Scan[] = []): Scan[] {
  if (node['Relation Name'] || node['Index Name'] || /Scan/.test(node['Node Type'])) {
    out.push({ node: node['Node Type'], relation: node['Relation Name'], index: node['Index Name'] });
  }
  for (const child of node.Plans ?? []) scansOf(child, out);
  return out;
}

const INDEXED = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan']);

/**
 * Tables whose live rows exist only while a delivery is in flight, so they hold at most every
 * worker's claims (6 × concurrency each), plus the dead rows of ended claims until vacuum: reading
 * one whole is what the worker's claim does to count what is in flight
 * (runtime/deliveries/sql/claim-deliveries.sql). Every way a claim ends deletes its row (the list is in
 * server/webhooks/README.md, "Crash recovery").
 */
const IN_FLIGHT_ONLY = new Set(['delivery_claims']);

let explainer: pg.Client;
async function plan(statement: Statement, generic = false): Promise<Scan[]> {
  const options = generic ? 'GENERIC_PLAN, FORMAT JSON' : 'FORMAT JSON';
  const { rows } = await explainer.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `explain (${options}) ${statement.text}`,
    generic ? [] : statement.values,
  );
  return scansOf(rows[0]['QUERY PLAN'][0].Plan);
}

let ctx: OperationContext;
let tenant: { tenantId: string; userId: string; apiKey: string };
let endpointId: string;
let deliveryId: string;

beforeAll(async () => {
  explainer = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await explainer.connect();
  // 1,000 other tenants: 2,000 endpoints, 5,000 events, 10,000 deliveries and ~9,900 attempts,
  // 5,000 bookings, 2,000 idempotency keys, 1,000 API keys, users and memberships.
  await loadOtherTenants(explainer, {
    tenants: 1000,
    endpointsPerTenant: 2,
    eventsPerTenant: 5,
    bookingsPerTenant: 5,
    idempotencyKeysPerTenant: 2,
    attempts: true,
  });
  // Stored stats buckets of the other tenants: 24 hours of each of their endpoints.
  await explainer.query(
    `insert into delivery_stats_rollups (tenant_id, endpoint_id, bucket, start, succeeded, failed)
     select e.tenant_id, e.id, 'hour', date_trunc('hour', now()) - h * interval '1 hour', 10, 1
     from webhook_endpoints e, generate_series(1, 24) h`,
  );
  // Timers of the other tenants: 5 fired, 5 planned ahead (reminders), and one tenant in 20 with 2 due.
  await explainer.query(
    `insert into timers (id, tenant_id, kind, subject_id, key, due_at, fired_at, updated_at)
     select 'tmr_' || t.id || '_' || g, t.id, 'booking.reminder', 'bkg_' || t.id || '_' || g, '',
       now() + (g - 5) * interval '1 day', case when g <= 5 then now() - interval '1 hour' end, now()
     from tenants t, generate_series(1, 10) g
     union all
     select 'tmr_' || t.id || '_due' || g, t.id, 'booking.hold', 'bkg_' || t.id || '_due' || g, '',
       now() - interval '1 second', null, now()
     from (select id from tenants order by id limit 50) t, generate_series(1, 2) g`,
  );
  tenant = await createTenantWithAdmin({
    name: 'Planned',
    adminEmail: 'plans@example.test',
    adminPassword: 'plans password 1',
  });
  ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
  endpointId = (await createEndpoint(ctx, { url: 'http://127.0.0.1:9/hook', events: ['booking.*'] })).id;
  for (let i = 0; i < 30; i++) {
    await createBooking(ctx, {
      customer: { name: `Customer ${i}` },
      start_at: new Date(Date.UTC(2027, 0, 1, i)).toISOString(),
      end_at: new Date(Date.UTC(2027, 0, 1, i, 30)).toISOString(),
    } as never);
  }
  const [first] = await db().delivery.findMany({ where: { tenantId: tenant.tenantId }, take: 1 });
  deliveryId = first.id;
  await explainer.query('analyze');
}, 120_000);

afterAll(async () => {
  await explainer?.end();
});

const HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString();
const IN_AN_HOUR = new Date(Date.now() + 3_600_000).toISOString();
const cursorOf = (page: { next_cursor: string | null }) => page.next_cursor ?? undefined;

// name → the statements of that hot path, as the code runs them.
const HOT: [string, () => Promise<Statement[]>][] = [
  [
    'bookings of a tenant, first page and by cursor (GET /bookings)',
    async () =>
      captured(async () => {
        const page = await listBookings(ctx, BookingListQuery.parse({ limit: 10 }));
        await listBookings(ctx, BookingListQuery.parse({ limit: 10, cursor: cursorOf(page) }));
      }),
  ],
  [
    'deliveries of an endpoint by cursor (GET /webhooks/{id}/deliveries)',
    async () =>
      captured(async () => {
        const page = await listDeliveries(ctx, { endpointId, limit: 10 });
        await listDeliveries(ctx, { endpointId, limit: 10, cursor: cursorOf(page) });
      }),
  ],
  ...(
    [
      ['status', { status: 'failed' }],
      ['event_type (a type)', { event_type: 'booking.created' }],
      ['event_type (a family)', { event_type: 'booking.*' }],
      ['object_id', { object_id: 'bkg_1' }],
      ['response_status', { response_status: '5xx' }],
      ['response_status none', { response_status: 'none' }],
      ['created_after and created_before', { created_after: HOUR_AGO, created_before: IN_AN_HOUR }],
      ['endpoint_id', { endpoint_id: 'whe_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }],
    ] as const
  ).flatMap(([filter, input]): [string, () => Promise<Statement[]>][] => [
    [
      `deliveries of a tenant filtered by ${filter} (GET /deliveries)`,
      async () =>
        captured(async () => {
          const page = await listDeliveries(ctx, { ...input, limit: 10 });
          await listDeliveries(ctx, { ...input, limit: 10, cursor: cursorOf(page) });
        }),
    ],
    [
      `deliveries of an endpoint filtered by ${filter} (GET /webhooks/{id}/deliveries)`,
      async () => captured(() => listDeliveries(ctx, { ...input, endpointId, limit: 10 })),
    ],
  ]),
  [
    'deliveries of one event (the event log)',
    async () =>
      captured(() => listDeliveries(ctx, { event_id: 'evt_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q', limit: 10 })),
  ],
  [
    "an endpoint's stats, 24 h by hour and 30 days by day (GET /webhooks/{id}/stats)",
    async () =>
      captured(async () => {
        await endpointDeliveryStats(ctx, { id: endpointId });
        await endpointDeliveryStats(ctx, { id: endpointId, bucket: 'day' });
      }),
  ],
  [
    // (The overview's other counts are the hand-off queue's and the bookings list's queries.)
    "the tenant's stats and its failing endpoints (the overview, the dashboard's home)",
    async () =>
      captured(async () => {
        await tenantDeliveryStats(ctx, {});
        await endpointsNeedingAttention(ctx);
      }),
  ],
  [
    'events of a tenant by type and by family (the event log)',
    async () =>
      captured(async () => {
        await listEvents(ctx, { limit: 10, type: 'booking.created' });
        await listEvents(ctx, { limit: 10, type: 'booking.*' });
      }),
  ],
  [
    'events of a tenant by cursor (GET /events)',
    async () =>
      captured(async () => {
        const page = await listEvents(ctx, { limit: 10 });
        await listEvents(ctx, { limit: 10, cursor: cursorOf(page) });
      }),
  ],
  [
    "the outbox's active endpoints of a tenant (every write that emits an event)",
    async () =>
      captured(() =>
        transaction({ tenantId: tenant.tenantId }, (tx) =>
          recordEvent(tx, {
            tenantId: tenant.tenantId,
            type: 'booking.confirmed',
            object: { ...exampleObject('booking.confirmed'), id: 'bkg_x' },
          }),
        ),
      ),
  ],
  [
    "the worker's claim of due deliveries (runtime/deliveries/sql/claim-deliveries.sql)",
    async () => [{ text: claimDeliveries.text, values: [30, claimLeaseMs(10_000), 8, 5] }],
  ],
  [
    "the timer worker's fair claim of due timers (runtime/timers/sql/claim-timers.sql)",
    async () => [{ text: claimTimers.text, values: [20, 30_000, 4] }],
  ],
  [
    "the timer worker's look at the next due time (runtime/timers/sql/next-timer.sql)",
    async () => [{ text: nextTimer.text, values: [] }],
  ],
  [
    'the attempt records and the failure streaks they move, one statement (attempt/sql/record-attempts.sql)',
    async () => [
      {
        text: recordAttempts.text,
        values: [
          JSON.stringify([
            {
              id: newId('deliveryAttempt'),
              tenant_id: tenant.tenantId,
              delivery_id: deliveryId,
              endpoint_id: endpointId,
              attempt_number: 1,
              started_at: new Date().toISOString(),
              succeeded: true,
              response_status: 200,
              latency_ms: 3,
              response_excerpt: '',
              error: null,
              status: 'succeeded',
              next_attempt_at: null,
            },
          ]),
        ],
      },
    ],
  ],
  [
    "a recovery's count and batches of an endpoint's failed deliveries (POST /webhooks/{id}/recover)",
    async () =>
      captured(async () => {
        const since = new Date(Date.now() - 86_400_000).toISOString();
        await recoverDeliveries(ctx, { id: endpointId, since, dry_run: true });
        await recoverDeliveries(ctx, { id: endpointId, since });
      }),
  ],
  [
    "the Inngest relay's deliveries not yet handed to Inngest, and its mark (runtime/deliveries/relay.ts)",
    async () => captured(() => relayPass(async () => {}, [deliveryRelay])),
  ],
  [
    'the retention pass over expired events (periodic job)',
    async () => captured(() => deleteExpiredEvents({ days: 30 })),
  ],
  [
    'the retention pass over expired Idempotency-Key answers (periodic job)',
    async () => captured(() => deleteExpiredIdempotencyKeys()),
  ],
  [
    'API key by prefix (every API-key request)',
    async () => captured(() => authenticate(`Bearer ${tenant.apiKey}`)),
  ],
  [
    'membership of an access token (every access-token request)',
    async () => {
      const token = await signAccessToken({
        userId: tenant.userId,
        tenantId: tenant.tenantId,
        role: 'admin',
      });
      return captured(() => authenticate(`Bearer ${token}`));
    },
  ],
  [
    'Idempotency-Key claim and replay (POST with Idempotency-Key)',
    async () =>
      captured(async () => {
        const input = {
          db: ctx.db,
          tenantId: tenant.tenantId,
          credential: 'api_key:x',
          secretResponse: false,
          key: 'plan-key',
          method: 'POST',
          path: '/bookings',
          rawBody: '{}',
        };
        const run = async () => ({ status: 201, body: { ok: true } });
        await withIdempotency(input, run);
        await withIdempotency(input, run); // the replay reads the stored answer
      }),
  ],
];

describe('hot queries use indexes, never a sequential scan', () => {
  it('has rows of other tenants to choose between', async () => {
    const { rows } = await explainer.query<{ n: number }>(
      `select count(*)::int as n from deliveries where tenant_id <> $1::uuid`,
      [tenant.tenantId],
    );
    expect(rows[0].n).toBe(10_000);
    expect(otherTenantId(1)).not.toBe(tenant.tenantId);
  });

  it.each(HOT)('%s', async (name, statementsOf) => {
    const statements = await statementsOf();
    expect(statements.length).toBeGreaterThan(0);
    const scans: Scan[] = [];
    for (const statement of statements) {
      // Every statement is also planned generically: the service's statements are named (prepared
      // once per connection, server/db/statement-names.ts), and PostgreSQL may switch a named
      // statement to its generic plan after five runs.
      const plans = [await plan(statement), await plan(statement, true)];
      for (const found of plans) {
        const seq = found.filter((s) => s.node === 'Seq Scan' && !IN_FLIGHT_ONLY.has(s.relation ?? ''));
        expect(seq, `sequential scan in:\n${statement.text}\n${JSON.stringify(found)}`).toEqual([]);
        scans.push(...found);
      }
    }
    expect(
      scans.some((s) => INDEXED.has(s.node)),
      JSON.stringify(scans),
    ).toBe(true);
    // SHOW_PLANS=1 prints what each hot path scans.
    if (process.env.SHOW_PLANS)
      console.log(
        name,
        scans.map((s) => [s.node, s.relation, s.index].join(' ')),
      );
  });
});
