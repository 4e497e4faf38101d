// The worker's attempt records. Records that arrive while one is being written go together in the
// next statement: one commit and one WAL flush for all of them (group commit, done by the caller).
// It runs on the worker's own `pg` pool as one named statement (parsed and planned once per
// connection; unnamed behind a transaction-mode pooler) that records the attempts and moves their
// deliveries and failure streaks (record-attempts.sql): one round trip a batch. Each record keeps
// its own rules: the attempt row is unique per (delivery, number), and only a new row moves its
// still-pending delivery (ending the worker's claim on it) and its endpoint's streak.
import type pg from 'pg';
import { type AttemptRecord, attemptRecordRow } from '@/server/webhooks/attempt/run-attempt';
import { recordAttempts } from '@/server/webhooks/attempt/sql/record-attempts';

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
    const rows = JSON.stringify(unique.map(attemptRecordRow));
    const moved = new Set(
      (await recordAttempts.pgRows(pool, [rows], { prepared: true })).map((m) => m.deliveryId),
    );
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
