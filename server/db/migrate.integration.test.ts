import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, MigrationError, readMigrations } from './migrate';

// Each case gets an empty database of its own on the test cluster.
// Migrations run on the direct URL, as in production: a transaction-mode pooler cannot hold their lock.
const directUrl = (process.env.DIRECT_URL || process.env.DATABASE_URL) as string;
const admin = new pg.Client({ connectionString: directUrl });
const made: string[] = [];
beforeAll(() => admin.connect());
afterAll(async () => {
  for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

async function emptyDatabase(): Promise<string> {
  const name = `m_${Math.random().toString(36).slice(2, 10)}`;
  await admin.query(`create database ${name}`);
  made.push(name);
  const url = new URL(directUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function migrationsFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('applyMigrations', () => {
  it('applies the project migrations once, recording them as prisma migrate deploy does', async () => {
    const url = await emptyDatabase();
    const first = await applyMigrations(url);
    expect(first.applied).toEqual(readMigrations().map((m) => m.name));
    expect((await applyMigrations(url)).applied).toEqual([]);
    const rows = await query(
      url,
      'select migration_name, checksum, finished_at, applied_steps_count from "_prisma_migrations"',
    );
    const expected = readMigrations().map((m) => ({ name: m.name, checksum: m.checksum }));
    expect(rows.map((r) => ({ name: r.migration_name, checksum: r.checksum }))).toEqual(expected);
    expect(rows.every((r) => r.finished_at && r.applied_steps_count === 1)).toBe(true);
    const sql = readMigrations()[0].sql;
    expect(expected[0].checksum).toBe(createHash('sha256').update(sql).digest('hex'));
  });

  it('rolls a failing migration back completely and stops loudly', async () => {
    const url = await emptyDatabase();
    const dir = migrationsFolder({
      '001_ok': 'create table a (id int);',
      '002_broken': 'create table b (id int);\ninsert into missing_table values (1);',
    });
    await expect(applyMigrations(url, dir)).rejects.toThrow(MigrationError);
    await expect(applyMigrations(url, dir)).rejects.toThrow(/002_broken failed and was rolled back/);
    const tables = await query(
      url,
      "select table_name from information_schema.tables where table_schema = 'public' order by 1",
    );
    expect(tables.map((t) => t.table_name)).toEqual(['_prisma_migrations', 'a']);
    const rows = await query(url, 'select migration_name from "_prisma_migrations"');
    expect(rows.map((r) => r.migration_name)).toEqual(['001_ok']);
  });

  it('refuses a database that has migrations this build does not know', async () => {
    const url = await emptyDatabase();
    await applyMigrations(url, migrationsFolder({ '001_a': 'select 1;', '002_b': 'select 1;' }));
    await expect(applyMigrations(url, migrationsFolder({ '001_a': 'select 1;' }))).rejects.toThrow(
      /does not know \(002_b\)/,
    );
  });

  it('serialises concurrent starters with an advisory lock', async () => {
    const url = await emptyDatabase();
    const dir = migrationsFolder({ '001_slow': 'select pg_sleep(0.3); create table once_only (id int);' });
    const results = await Promise.all([
      applyMigrations(url, dir),
      applyMigrations(url, dir),
      applyMigrations(url, dir),
    ]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 1]);
  });
});
