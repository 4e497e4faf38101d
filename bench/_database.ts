// What every in-process bench starts from: an embedded PostgreSQL of its own in a throw-away
// DATA_DIR, a database `bench_<name>` with the migrations applied, and the settings pointed at it
// (worker engine, private URLs allowed, logs off). Everything is stopped and removed afterwards.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export async function withBenchDatabase<T>(name: string, measure: (url: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `switchboard-bench-${name}-`));
  chmodSync(dataDir, 0o755);
  const { ensureEmbeddedDatabase } = await import('@/server/db/embedded');
  const embedded = await ensureEmbeddedDatabase(dataDir);
  try {
    const admin = new URL(embedded.url);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`create database bench_${name}`);
    await client.end();
    const url = new URL(embedded.url);
    url.pathname = `/bench_${name}`;
    Object.assign(process.env, {
      DATABASE_URL: url.toString(),
      AUTH_SECRET: randomBytes(32).toString('base64'),
      SECRETS_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      DELIVERY_ENGINE: 'worker',
      LOG_LEVEL: 'silent',
    });
    const { applyMigrations } = await import('@/server/db/migrate');
    await applyMigrations(url.toString());
    const { resetSettingsCache } = await import('@/server/config/settings');
    resetSettingsCache();
    return await measure(url.toString());
  } finally {
    const { disconnectDb } = await import('@/server/db/client');
    await disconnectDb();
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The p-th percentile of ascending `sorted` (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
