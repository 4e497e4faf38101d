// Applies `prisma/migrations` the way `prisma migrate deploy` does, without Prisma's native engine
// (which cannot be downloaded here): same folder format, same `_prisma_migrations` bookkeeping and
// checksums, so either tool can take over a database from the other. Differences, both stricter:
// each migration runs in one transaction (PostgreSQL DDL is transactional, so a failed migration
// leaves nothing half-applied), and a session-level advisory lock serialises concurrent starters
// (server, CLI, a second instance).
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface MigrationResult {
  applied: string[];
}

export class MigrationError extends Error {}

const LOCK_KEY = 72_707_369; // Prisma's own advisory lock id, so we also exclude `migrate deploy`.

export function migrationsDir(): string {
  return path.resolve(process.cwd(), 'prisma/migrations');
}

export interface MigrationFileEntry {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = migrationsDir()): MigrationFileEntry[] {
  if (!existsSync(dir)) throw new MigrationError(`No migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export async function applyMigrations(databaseUrl: string, dir = migrationsDir()): Promise<MigrationResult> {
  const migrations = readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`
      create table if not exists "_prisma_migrations" (
        "id" varchar(36) primary key not null,
        "checksum" varchar(64) not null,
        "finished_at" timestamptz,
        "migration_name" varchar(255) not null,
        "logs" text,
        "rolled_back_at" timestamptz,
        "started_at" timestamptz not null default now(),
        "applied_steps_count" integer not null default 0
      )`);
    const { rows } = await client.query<{
      migration_name: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>('select migration_name, finished_at, rolled_back_at from "_prisma_migrations"');
    const unfinished = rows.find((row) => !row.finished_at && !row.rolled_back_at);
    if (unfinished) {
      throw new MigrationError(
        `Migration ${unfinished.migration_name} failed earlier and was never resolved; fix it, then mark ` +
          `it rolled back (prisma migrate resolve).`,
      );
    }
    const done = new Set(rows.filter((row) => row.finished_at).map((row) => row.migration_name));
    const known = new Set(migrations.map((m) => m.name));
    const unknown = [...done].filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new MigrationError(
        `The database has migrations this build does not know (${unknown.join(', ')}): is an older build ` +
          `running against a newer database?`,
      );
    }

    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      try {
        await client.query('begin');
        await client.query(migration.sql);
        await client.query(
          `insert into "_prisma_migrations"
             (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           values ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('commit');
        applied.push(migration.name);
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw new MigrationError(
          `Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`,
        );
      }
    }
    return { applied };
  } finally {
    await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
