import type pg from 'pg';
import type { AttemptRecord, AttemptStore, LoadedDelivery } from '../attempt';
import { LOAD_DELIVERIES_SQL } from '../load-deliveries-sql';
import { jobSpecs } from './queue';

/**
 * The worker's attempt store. Loads that arrive together are one query, and records that arrive
 * while one is being written go together in the next statement: one commit and one WAL flush for all of them (group commit, done by the caller).
 * The statements run on the worker's own `pg` pool as named statements (parsed and planned once per
 * connection). Each record keeps its own rules: the attempt row is unique per (delivery, number),
 * only a new row moves its still-pending delivery, and only a moved delivery gets its retry job.
 */

const RECORD = `with input as (
    select * from json_to_recordset($1::json) as x(id text, tenant_id uuid, delivery_id text, attempt_number int,
      started_at timestamptz, succeeded boolean, response_status int, latency_ms int, response_excerpt text, error text,
      status "DeliveryStatus", next_attempt_at timestamptz, retry json)
  ), attempt as (
    insert into delivery_attempts (id, tenant_id, delivery_id, attempt_number, started_at, succeeded,
      response_status, latency_ms, response_excerpt, error)
    select id, tenant_id, delivery_id, attempt_number, started_at, succeeded, response_status, latency_ms,
      response_excerpt, error
    from input
    on conflict (delivery_id, attempt_number) do nothing
    returning delivery_id, attempt_number
  ), moved as (
    update deliveries d set status = i.status, attempt_count = i.attempt_number, last_attempt_at = i.started_at,
      next_attempt_at = i.next_attempt_at, updated_at = now()
    from attempt a join input i on i.delivery_id = a.delivery_id and i.attempt_number = a.attempt_number
    where d.id = a.delivery_id and d.tenant_id = i.tenant_id and d.status = 'pending'
    returning d.id, i.retry
  ), retry as (
    select graphile_worker.add_jobs(array(
      select json_populate_record(null::graphile_worker.job_spec, spec)
      from moved, json_array_elements(moved.retry) as spec where moved.retry is not null))
    where exists (select 1 from moved where moved.retry is not null)
  )
  select coalesce((select array_agg(id) from moved), '{}') as moved, (select count(*) from retry)::int as retried`;

export function workerAttemptStore(pool: pg.Pool): AttemptStore {
  const load = batched<AttemptRecord['job'], LoadedDelivery | undefined>(async (jobs) => {
    const { rows } = await pool.query<LoadedDelivery & { tenantId: string }>({
      name: 'switchboard_attempt_load',
      text: LOAD_DELIVERIES_SQL,
      values: [jobs.map((j) => j.deliveryId), jobs.map((j) => j.tenantId)],
    });
    return jobs.map((job) => rows.find((r) => r.id === job.deliveryId && r.tenantId === job.tenantId));
  });

  const record = batched<AttemptRecord, boolean>(async (records) => {
    // The same attempt twice in one batch (a duplicated job): only the first is written, so the
    // second is the duplicate, as it would be in a later statement.
    const seen = new Set<string>();
    const unique = records.filter((r) => {
      const key = `${r.job.deliveryId}#${r.job.attempt}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const input = unique.map((r) => ({
      id: r.id,
      tenant_id: r.job.tenantId,
      delivery_id: r.job.deliveryId,
      attempt_number: r.job.attempt,
      started_at: r.startedAt.toISOString(),
      succeeded: r.result.ok,
      response_status: r.result.status,
      latency_ms: r.result.latencyMs,
      response_excerpt: r.result.excerpt,
      error: r.result.error,
      status: r.status,
      next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
      retry: r.retry ? jobSpecs([r.retry]) : null,
    }));
    const { rows } = await pool.query<{ moved: string[] }>({
      name: 'switchboard_attempt_record',
      text: RECORD,
      values: [JSON.stringify(input)],
    });
    const moved = new Set(rows[0].moved);
    return records.map((r) => unique.includes(r) && moved.has(r.job.deliveryId));
  });

  return { load, record };
}

/**
 * Calls `run` with every input that arrived while the previous call was under way (or, when
 * idle, in the same turn of the event loop). If a combined call fails, each input is retried on
 * its own, so one bad input fails only its own caller.
 */
export function batched<I, O>(run: (inputs: I[]) => Promise<O[]>): (input: I) => Promise<O> {
  type Waiter = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void };
  let queue: Waiter[] = [];
  let busy = false;
  const settle = async (batch: Waiter[]) => {
    const outputs = await run(batch.map((w) => w.input));
    for (const [i, w] of batch.entries()) w.resolve(outputs[i]);
  };
  const flush = async () => {
    if (busy || queue.length === 0) return;
    const batch = queue;
    queue = [];
    busy = true;
    try {
      await settle(batch);
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      else await Promise.all(batch.map((w) => settle([w]).catch((e) => w.reject(e))));
    } finally {
      busy = false;
    }
    void flush();
  };
  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      if (!busy && queue.length === 1) setImmediate(() => void flush());
    });
}
