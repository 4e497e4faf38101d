// `npm run sql:types`: writes the typed module beside every .sql file under server/ (see
// scripts/lib/sql-types.ts). `--check` (part of `npm run lint`, so CI) writes nothing and fails when a
// committed module is not what the .sql file and the migrations generate. The statements are
// prepared on a throw-away embedded PostgreSQL with every migration applied, or on the migrated
// database SQL_TYPES_DATABASE_URL names. Either way it fails for a statement that reads or writes a
// tenant's rows without naming the tenant (scripts/lib/sql-tenant-filter.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { applyMigrations } from '@/server/db/migrate';
import { tenantFilterProblems, tenantTables } from './lib/sql-tenant-filter';
import { findSqlFiles, formatTypeScript, generateModule, SqlTypesError } from './lib/sql-types';

const check = process.argv.includes('--check');

async function database(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.SQL_TYPES_DATABASE_URL)
    return { url: process.env.SQL_TYPES_DATABASE_URL, stop: async () => {} };
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-sql-types-'));
  const embedded = await ensureEmbeddedDatabase(dir);
  await applyMigrations(embedded.url);
  return {
    url: embedded.url,
    async stop() {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const files = findSqlFiles();
const db = await database();
const client = new pg.Client({ connectionString: db.url });
let stale = 0;
let unfiltered = 0;
try {
  await client.connect();
  const tenant = await tenantTables(client);
  for (const file of files) {
    for (const problem of await tenantFilterProblems(client, file, tenant)) {
      console.error(`${file.sqlPath} ${problem} (or say why it crosses tenants: -- @cross-tenant <why>)`);
      unfiltered++;
    }
    const code = formatTypeScript(await generateModule(client, file), file.modulePath);
    const current = existsSync(file.modulePath) ? readFileSync(file.modulePath, 'utf8') : null;
    if (current === code) continue;
    if (check) {
      console.error(
        `${file.modulePath} is out of date with ${file.sqlPath}: run \`npm run sql:types\` and commit it.`,
      );
      stale++;
    } else {
      writeFileSync(file.modulePath, code);
      console.log(`wrote ${file.modulePath}`);
    }
  }
} catch (error) {
  if (!(error instanceof SqlTypesError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await client.end();
  await db.stop();
}
if (stale > 0 || unfiltered > 0) process.exitCode = 1;
else if (!process.exitCode)
  console.log(`${files.length} typed SQL modules ${check ? 'up to date' : 'generated'}`);
