// A small raw pg pool for the parts that speak SQL themselves (rate limiter, job queue).
import pg from 'pg';
import { databaseUrl } from './client';

const holder = globalThis as unknown as { __switchboardPool?: { url: string; pool: pg.Pool } };

export function pgPool(): pg.Pool {
  const url = databaseUrl();
  if (!holder.__switchboardPool || holder.__switchboardPool.url !== url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => {}); // idle-client errors surface on the next query instead
    holder.__switchboardPool = { url, pool };
  }
  return holder.__switchboardPool.pool;
}

/**
 * A prepared statement's name, or none behind a transaction-mode pooler: a named statement lives in
 * the server session it was prepared on, and the pooler hands the next query another one. A pooler is
 * assumed when DIRECT_URL is set apart from DATABASE_URL (README, "Deploying").
 */
export function statementName(name: string): string | undefined {
  const direct = process.env.DIRECT_URL;
  return direct && direct !== process.env.DATABASE_URL ? undefined : name;
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
