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

export async function closePgPool(): Promise<void> {
  const current = holder.__switchboardPool;
  holder.__switchboardPool = undefined;
  await current?.pool.end();
}
