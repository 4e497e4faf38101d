// Rows of OTHER tenants, generated in SQL (`insert … select generate_series`), so a database can be
// made big in seconds without going through the app: the benches measure with them
// (bench/api.ts, bench/webhooks.ts) and test/platform/query-plans-use-indexes.integration.test.ts plans against them.
// Every tenant gets `endpoints` webhook endpoints and `events` events, each event fanned out to all
// of the tenant's endpoints (tenants × events × endpoints delivery rows): historic deliveries,
// mostly succeeded, some failed, 1 % pending with a retry due tomorrow (never due for a worker
// during a run). Ids keep the app's shape (`dlv_` + 26 characters, digits only) and sort before
// the app's time-ordered ids.
import type pg from 'pg';

export interface OtherTenants {
  tenants: number;
  endpointsPerTenant: number;
  eventsPerTenant: number;
  bookingsPerTenant: number;
  /** One attempt row per delivery that is not pending. */
  attempts?: boolean;
  /** Also an API key, an admin user with its membership and this many idempotency keys per tenant. */
  idempotencyKeysPerTenant?: number;
}

const TENANT = (t: string) => `('00000000-0000-4000-8000-' || lpad(to_hex(${t}), 12, '0'))::uuid`;
const ID = (prefix: string, ...parts: [string, number][]) =>
  `'${prefix}_' || ${parts.map(([expr, width]) => `lpad((${expr})::text, ${width}, '0')`).join(' || ')}`;

export function otherTenantId(t: number): string {
  return `00000000-0000-4000-8000-${t.toString(16).padStart(12, '0')}`;
}

/**
 * Inserts the rows (tenant numbers 1…tenants, so call it once per database), then VACUUM ANALYZE. Bulk
 * load: foreign-key triggers are off for this session (the rows are consistent by construction; it
 * needs a superuser, which the embedded database's user is), and the secondary indexes of the big
 * tables are dropped and built again after the insert, which is several times faster than
 * maintaining them row by row. Indexes that back a constraint (unique, and the bookings' exclusion
 * constraint) stay.
 */
export async function loadOtherTenants(client: pg.Client, o: OtherTenants): Promise<{ deliveries: number }> {
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `select indexname as name, indexdef as definition from pg_indexes
     where schemaname = 'public' and tablename in ('deliveries', 'events', 'delivery_attempts', 'bookings', 'payments')
       and indexname not like '%_pkey'
       and indexname not in (select conname from pg_constraint where contype in ('u', 'x'))`,
  );
  await client.query(`set session_replication_role = replica`);
  for (const index of indexes) await client.query(`drop index "${index.name}"`);
  try {
    return await insertRows(client, o);
  } finally {
    await client.query(`set maintenance_work_mem = '256MB'`);
    for (const index of indexes) await client.query(index.definition);
    await client.query(`reset maintenance_work_mem`);
    await client.query(`set session_replication_role = origin`);
    // VACUUM too, as autovacuum would soon after such a load: otherwise it runs during the
    // measurement that follows, and index-only scans find no visibility map.
    await client.query('vacuum analyze');
  }
}

async function insertRows(client: pg.Client, o: OtherTenants): Promise<{ deliveries: number }> {
  const { tenants: T, endpointsPerTenant: E, eventsPerTenant: N, bookingsPerTenant: B } = o;
  await client.query(
    `insert into tenants (id, name) select ${TENANT('t')}, 'Other ' || t from generate_series(1, $1) t`,
    [T],
  );
  await client.query(
    `insert into webhook_endpoints (id, tenant_id, url, events, is_active, secret_enc, updated_at)
     select ${ID('whe', ['t', 8], ['e', 18])}, ${TENANT('t')}, 'https://hooks.example.test/' || t || '/' || e,
       array['booking.*'], true, 'v1.not-a-secret', now()
     from generate_series(1, $1) t, generate_series(1, $2) e`,
    [T, E],
  );
  await client.query(
    `insert into events (id, tenant_id, type, payload, created_at)
     select ${ID('evt', ['t', 8], ['n', 18])}, ${TENANT('t')}, 'booking.confirmed',
       jsonb_build_object('id', ${ID('evt', ['t', 8], ['n', 18])}, 'type', 'booking.confirmed',
         'data', jsonb_build_object('object', jsonb_build_object('id', 'bkg_' || n, 'status', 'confirmed'))),
       now() - interval '1 day'
     from generate_series(1, $1) t, generate_series(1, $2) n`,
    [T, N],
  );
  await client.query(
    `insert into deliveries (id, tenant_id, event_id, event_type, object_id, endpoint_id, status, attempt_count,
       next_attempt_at, last_attempt_at, last_response_status, relayed_at, created_at, updated_at)
     select ${ID('dlv', ['t', 8], ['n', 9], ['e', 9])}, ${TENANT('t')}, ${ID('evt', ['t', 8], ['n', 18])},
       'booking.confirmed', 'bkg_' || n, ${ID('whe', ['t', 8], ['e', 18])},
       (case when (n + e) % 100 = 0 then 'pending' when (n + e) % 50 = 0 then 'failed' else 'succeeded' end)::"DeliveryStatus",
       1, case when (n + e) % 100 = 0 then now() + interval '1 day' end,
       now() - interval '1 day',
       case when (n + e) % 100 = 0 then null when (n + e) % 50 = 0 then 500 else 200 end,
       now() - interval '1 day', now() - interval '1 day', now() - interval '1 day'
     from generate_series(1, $1) t, generate_series(1, $2) n, generate_series(1, $3) e`,
    [T, N, E],
  );
  if (o.attempts) {
    await client.query(
      `insert into delivery_attempts (id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded,
         response_status, latency_ms)
       select 'att_' || substr(d.id, 5), d.tenant_id, d.id, d.endpoint_id, 1, d.last_attempt_at, d.status = 'succeeded',
         case when d.status = 'succeeded' then 200 else 500 end, 5
       from deliveries d
       where d.tenant_id in (select ${TENANT('t')} from generate_series(1, $1) t) and d.status <> 'pending'`,
      [T],
    );
  }
  await client.query(
    `insert into bookings (id, tenant_id, status, customer_name, customer_email, start_at, end_at, updated_at)
     select ${ID('bkg', ['t', 8], ['b', 18])}, ${TENANT('t')}, 'confirmed', 'Customer ' || b,
       'c' || b || '@example.test', now() + b * interval '1 hour', now() + b * interval '1 hour' + interval '30 minutes',
       now()
     from generate_series(1, $1) t, generate_series(1, $2) b`,
    [T, B],
  );
  // Each booking paid (a manual payment), so a booking's payment is found by index, as in production.
  await client.query(
    `insert into payments (id, tenant_id, booking_id, amount, currency, status, updated_at)
     select ${ID('pay', ['t', 8], ['b', 18])}, ${TENANT('t')}, ${ID('bkg', ['t', 8], ['b', 18])}, 4500, 'EUR',
       'succeeded', now()
     from generate_series(1, $1) t, generate_series(1, $2) b`,
    [T, B],
  );
  if (o.idempotencyKeysPerTenant !== undefined) {
    await client.query(
      `insert into api_keys (id, tenant_id, name, prefix, secret_hash)
       select ${ID('key', ['t', 26])}, ${TENANT('t')}, 'Other', 'oth' || lpad(t::text, 9, '0'), repeat('0', 64)
       from generate_series(1, $1) t`,
      [T],
    );
    await client.query(
      `insert into users (id, email, name, password_hash)
       select ${ID('usr', ['t', 26])}, 'admin' || t || '@other.test', 'Admin ' || t, 'unusable'
       from generate_series(1, $1) t`,
      [T],
    );
    await client.query(
      `insert into memberships (tenant_id, user_id, role)
       select ${TENANT('t')}, ${ID('usr', ['t', 26])}, 'admin' from generate_series(1, $1) t`,
      [T],
    );
    await client.query(
      `insert into idempotency_keys (tenant_id, key, request_hash, credential, response_status, expires_at)
       select ${TENANT('t')}, 'key-' || k, repeat('0', 64), 'api_key:x', 201, now() + interval '1 day'
       from generate_series(1, $1) t, generate_series(1, $2) k`,
      [T, o.idempotencyKeysPerTenant],
    );
  }
  return { deliveries: T * N * E };
}
