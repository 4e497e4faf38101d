// The raw pg pool for the parts that speak SQL themselves (rate limiter, the delivery worker's
// claims, and the units of work that begin with a typed statement, ./unit-of-work.ts).
import pg from 'pg';
import { databaseUrl, poolSize } from './client';
import { statementName } from './statement-names';

const holder = globalThis as unknown as { __switchboardPool?: { url: string; pool: pg.Pool } };

export function pgPool(): pg.Pool {
  const url = databaseUrl();
  if (!holder.__switchboardPool || holder.__switchboardPool.url !== url) {
    const pool = new pg.Pool({ connectionString: url, max: poolSize() });
    pool.on('error', () => {}); // idle-client errors surface on the next query instead
    holder.__switchboardPool = { url, pool };
  }
  return holder.__switchboardPool.pool;
}

/**
 * The pool, for libraries that name their prepared statements themselves (rate-limiter-flexible):
 * the names are dropped behind a transaction-mode pooler.
 */
export function pgPoolWithoutSessionState(): { query(query: pg.QueryConfig): Promise<pg.QueryResult> } {
  const pool = pgPool();
  return { query: (query) => pool.query({ ...query, name: query.name && statementName(query.name) }) };
}

export async function closePgPool(): Promise<void> {
  const current = holder.__switchboardPool;
  holder.__switchboardPool = undefined;
  await current?.pool.end();
}

/**
 * Runs `work` in a transaction on a client of `pool`: the `pg`-level primitive under
 * ./unit-of-work.ts, and the delivery worker's claim on its own pool (operations use `transaction()`). A checked-out client has no error listener
 * of its own (pg-pool removes its idle one), so a connection the server drops between two
 * statements would be an uncaught 'error' event that ends the process: one is attached while the
 * client is out, and a client that failed is destroyed rather than returned to the pool.
 */
export async function pgTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    broken ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}
