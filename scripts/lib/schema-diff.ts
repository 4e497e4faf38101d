// Prisma's schema engine compiled to WebAssembly, driven offline: it replays `prisma/migrations` on
// an in-memory PGlite shadow database and diffs the result against `prisma/schema.prisma`. The SQL
// it returns is what `prisma migrate dev` would write. The shadow loads the extensions the migrations
// create (`btree_gist`, for the bookings' exclusion constraint).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as engineBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { readMigrations } from '@/server/db/migrate';

const require = createRequire(import.meta.url);

/** A fresh in-memory PGlite per shadow database, with the extensions the migrations create. */
const withExtensions = () => new PGlite({ extensions: { btree_gist } });
class ShadowFactory extends PrismaPGlite {
  override connectToShadowDb() {
    return new PrismaPGlite(withExtensions()).connect();
  }
}
let loaded: Promise<typeof engineBindings> | undefined;

function loadEngine(): Promise<typeof engineBindings> {
  loaded ??= (async () => {
    const file = path.join(
      path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
      'schema_engine_bg.wasm',
    );
    const { instance } = await WebAssembly.instantiate(readFileSync(file), {
      './schema_engine_bg.js': engineBindings,
    });
    engineBindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
    return engineBindings;
  })();
  return loaded;
}

/** SQL that brings a database migrated with every existing migration up to the schema; "" when none is needed. */
export async function pendingSchemaSql(
  schemaPath = 'prisma/schema.prisma',
  migrationsDir = 'prisma/migrations',
): Promise<string> {
  const { SchemaEngine } = await loadEngine();
  const schema = readFileSync(schemaPath, 'utf8');
  const files = [{ path: schemaPath, content: schema }];
  const shadow = bindMigrationAwareSqlAdapterFactory(new ShadowFactory(withExtensions()));
  const engine = await SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, shadow);
  try {
    const migrations = readMigrations(path.resolve(migrationsDir));
    const result = await engine.diff({
      from: {
        tag: 'migrations',
        baseDir: path.resolve(migrationsDir),
        lockfile: { path: 'migration_lock.toml', content: 'provider = "postgresql"\n' },
        shadowDbInitScript: '',
        migrationDirectories: migrations.map((m) => ({
          path: m.name,
          migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: m.sql } },
        })),
      },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    } as unknown as Parameters<typeof engine.diff>[0]);
    const sql = (result.stdout ?? '').trim();
    return sql === '-- This is an empty migration.' ? '' : sql;
  } finally {
    engine.free();
  }
}
