// The worker's attempt records. Records that arrive while one is being written go together in the
// next statement: one commit and one WAL flush for all of them (group commit, done by the caller).
// The statement runs on the worker's own `pg` pool as a named statement (parsed and planned once
// per connection; unnamed behind a transaction-mode pooler). Each record keeps its own rules: the attempt row is unique per (delivery,
// number), and only a new row moves its still-pending delivery (ending the worker's claim on it).
import type pg from 'pg';
import { statementName } from '@/server/db/pool';
import type { AttemptRecord } from '@/server/delivery/attempt';

export const RECORD_ATTEMPTS_SQL = `with input as (
    select * from json_to_recordset($1::json) as x(id text, tenant_id uuid, delivery_id text, endpoint_id text, attempt_number int,
      started_at timestamptz, succeeded boolean, response_status int, latency_ms int, response_excerpt text, error text,
      status "DeliveryStatus", next_attempt_at timestamptz)
  ), attempt as (
    insert into delivery_attempts (id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded,
      response_status, latency_ms, response_excerpt, error)
    select id, tenant_id, delivery_id, endpoint_id, attempt_number, started_at, succeeded, response_status, latency_ms,
      response_excerpt, error
    from input
    on conflict (delivery_id, attempt_number) do nothing
    returning delivery_id, attempt_number
  ), moved as (
    update deliveries d set status = i.status, attempt_count = i.attempt_number, last_attempt_at = i.started_at,
      next_attempt_at = i.next_attempt_at, last_response_status = i.response_status, locked_until = null,
      updated_at = now()
    from attempt a join input i on i.delivery_id = a.delivery_id and i.attempt_number = a.attempt_number
    where d.id = a.delivery_id and d.tenant_id = i.tenant_id and d.status = 'pending'
    returning d.id
  )
  select coalesce((select array_agg(id) from moved), '{}') as moved`;

export function batchedAttemptRecorder(pool: pg.Pool): (record: AttemptRecord) => Promise<boolean> {
  return batched<AttemptRecord, boolean>(async (records) => {
    // The same attempt twice in one batch (a duplicated run): only the first is written, so the
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
      endpoint_id: r.endpointId,
      attempt_number: r.job.attempt,
      started_at: r.startedAt.toISOString(),
      succeeded: r.result.ok,
      response_status: r.result.status,
      latency_ms: r.result.latencyMs,
      response_excerpt: r.result.excerpt,
      error: r.result.error,
      status: r.status,
      next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    }));
    const { rows } = await pool.query<{ moved: string[] }>({
      name: statementName('switchboard_attempt_record'),
      text: RECORD_ATTEMPTS_SQL,
      values: [JSON.stringify(input)],
    });
    const moved = new Set(rows[0].moved);
    return records.map((r) => unique.includes(r) && moved.has(r.job.deliveryId));
  });
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
