// The least bookkeeping a durable delivery queue does, as a baseline for the worker's drain: the
// bare loop's sign-and-POST of the same deliveries (payloads, endpoints and secret held in memory,
// the same concurrency and sender), plus the two writes no durable queue can skip. A claim marks
// deliveries in flight before they are sent, so a crash loses none (one statement per claim, run
// ahead of the senders as the worker's are, one at a time); a record stores each attempt and moves
// its delivery, so the attempt log and the delivery's state survive (one statement for the attempts
// finished meanwhile, as the worker batches them). Nothing else: no fairness, no load of the event
// or endpoint, no logs or metrics, no retry schedule.
//
// It runs on two schemas: the product's own tables (`deliveries`, with the indexes the delivery
// filters and the queue read; `delivery_attempts`; `delivery_claims`), and a bare queue (a table of
// the same columns with its primary key and one partial index of due deliveries, and an attempt
// table with its primary key). The first is the floor for this schema; the second is the floor for
// any durable queue on this machine. docs/benchmarks.md reads the two against the worker.
import type pg from 'pg';

export interface FloorDelivery {
  id: string;
  tenantId: string;
  endpointId: string;
  /** Signs and POSTs the delivery (the bare loop's send); resolves to the receiver's answer. */
  send(): Promise<{ status: number | null; latencyMs: number }>;
}

export type FloorSchema = 'product' | 'bare';

const CONCURRENCY = 10;
/** Claims run this far ahead of the senders, as the worker's do (10 slots × CLAIM_AHEAD_PER_SLOT). */
const CLAIM_AHEAD = 60;

const BARE_TABLES = `
  drop table if exists bench_floor_queue, bench_floor_attempts;
  create table bench_floor_queue (id text primary key, tenant_id uuid not null, endpoint_id text not null,
    status text not null, attempt_count int not null default 0, next_attempt_at timestamptz,
    last_attempt_at timestamptz, last_response_status int, locked_until timestamptz, updated_at timestamptz);
  create index on bench_floor_queue (next_attempt_at) where status = 'pending';
  create table bench_floor_attempts (id text primary key, tenant_id uuid not null, delivery_id text not null,
    endpoint_id text not null, attempt_number int not null, started_at timestamptz not null,
    succeeded boolean not null, response_status int, latency_ms int not null)`;

/**
 * Statements of one schema. On the product's tables a claim is a row in `delivery_claims` (with a
 * row lock on its delivery) and a record ends it, as the worker's do; on the bare queue the claim is
 * a column of the queue's row.
 */
function statements(schema: FloorSchema) {
  const input = `input as (
      select * from json_to_recordset($1::json) as x(id text, tenant_id uuid, delivery_id text,
        endpoint_id text, started_at timestamptz, response_status int, latency_ms int)
    )`;
  const moved = `status = 'succeeded', attempt_count = 1, last_attempt_at = i.started_at, next_attempt_at = null,
    last_response_status = i.response_status, updated_at = now()`;
  const attempt = (table: string) => `attempt as (
      insert into ${table} (id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded,
        response_status, latency_ms)
      select id, tenant_id, delivery_id, endpoint_id, 1, started_at, true, response_status, latency_ms from input
    )`;
  if (schema === 'product') {
    return {
      claim: {
        name: 'bench-floor-claim-product',
        text: `with due as (
            select d.id, d.tenant_id, d.endpoint_id from deliveries d
            where d.status = 'pending' and d.next_attempt_at <= now()
              and not exists (select from delivery_claims c where c.delivery_id = d.id and c.locked_until >= now())
            order by d.next_attempt_at limit $1 for update of d skip locked
          )
          insert into delivery_claims (delivery_id, tenant_id, endpoint_id, locked_until)
          select id, tenant_id, endpoint_id, now() + interval '40 seconds' from due
          on conflict (delivery_id) do update set locked_until = excluded.locked_until
          returning delivery_id as id`,
      },
      record: {
        name: 'bench-floor-record-product',
        text: `with ${input}, ${attempt('delivery_attempts')}, moved as (
            update deliveries d set ${moved} from input i where d.id = i.delivery_id returning d.id
          )
          delete from delivery_claims c using moved m where c.delivery_id = m.id`,
      },
    };
  }
  return {
    claim: {
      name: 'bench-floor-claim-bare',
      text: `update bench_floor_queue set locked_until = now() + interval '40 seconds' where id in (
          select id from bench_floor_queue where status = 'pending' and next_attempt_at <= now()
            and (locked_until is null or locked_until < now())
          order by next_attempt_at limit $1 for update skip locked)
        returning id`,
    },
    record: {
      name: 'bench-floor-record-bare',
      text: `with ${input}, ${attempt('bench_floor_attempts')}
        update bench_floor_queue d set ${moved}, locked_until = null from input i where d.id = i.delivery_id`,
    },
  };
}

/**
 * Copies the pending deliveries of `tenantId` into a fresh bare queue (for the `bare` schema) and
 * marks them delivered in the product's table, so that only the floor sends them.
 */
export async function prepareBareQueue(pool: pg.Pool, tenantId: string): Promise<void> {
  await pool.query(BARE_TABLES);
  await pool.query(
    `with moved as (
       update deliveries set status = 'succeeded' where tenant_id = $1 and status = 'pending'
       returning id, tenant_id, endpoint_id, next_attempt_at
     )
     insert into bench_floor_queue (id, tenant_id, endpoint_id, status, next_attempt_at)
     select id, tenant_id, endpoint_id, 'pending', next_attempt_at from moved`,
    [tenantId],
  );
  await pool.query('analyze bench_floor_queue');
}

/** Drains `deliveries` (all due in `schema`'s queue) through claim → send → record; resolves when all are recorded. */
export async function drainFloor(
  pool: pg.Pool,
  schema: FloorSchema,
  deliveries: FloorDelivery[],
  newAttemptId: () => string,
): Promise<void> {
  const { claim, record } = statements(schema);
  const byId = new Map(deliveries.map((d) => [d.id, d]));
  type Finished = {
    id: string;
    delivery: FloorDelivery;
    startedAt: Date;
    status: number | null;
    latencyMs: number;
  };
  const finished: Finished[] = [];
  let recording: Promise<void> | undefined;
  let recorded = 0;
  const buffer: FloorDelivery[] = [];
  let claiming: Promise<void> | undefined;
  let empty = false;
  let sending = 0;

  return new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => reject(error);
    // Records what finished while the previous record was written: one statement each time.
    const flush = () => {
      if (recording || finished.length === 0) return;
      const batch = finished.splice(0);
      const rows = batch.map((f) => ({
        id: f.id,
        tenant_id: f.delivery.tenantId,
        delivery_id: f.delivery.id,
        endpoint_id: f.delivery.endpointId,
        started_at: f.startedAt.toISOString(),
        response_status: f.status,
        latency_ms: f.latencyMs,
      }));
      recording = pool.query({ ...record, values: [JSON.stringify(rows)] }).then(() => {
        recorded += batch.length;
        recording = undefined;
        if (recorded === deliveries.length) resolve();
        else flush();
      }, fail);
    };
    const pump = () => {
      while (sending < CONCURRENCY && buffer.length > 0) {
        const delivery = buffer.shift() as FloorDelivery;
        const startedAt = new Date();
        sending++;
        delivery.send().then((answer) => {
          sending--;
          finished.push({ id: newAttemptId(), delivery, startedAt, ...answer });
          if (!recording) setImmediate(flush);
          pump();
        }, fail);
      }
      if (!claiming && !empty && buffer.length <= CONCURRENCY) {
        claiming = pool
          .query<{ id: string }>({ ...claim, values: [CLAIM_AHEAD - buffer.length] })
          .then(({ rows }) => {
            for (const row of rows) {
              const delivery = byId.get(row.id);
              if (!delivery) throw new Error(`the floor claimed ${row.id}, which it was not given`);
              buffer.push(delivery);
            }
            empty = rows.length === 0;
            claiming = undefined;
            pump();
          })
          .catch(fail);
      }
    };
    pump();
  });
}
