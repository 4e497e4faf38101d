// Runs `prisma generate` offline. The Prisma CLI insists on locating its native schema engine
// before any command, and that binary cannot be downloaded here; `generate` never runs it, so
// any executable satisfies the check. `--if-changed` skips the work when the schema is unchanged.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const schemaPath = 'prisma/schema.prisma';
const stampPath = 'server/db/generated/.schema-hash';
const hash = createHash('sha256').update(readFileSync(schemaPath)).digest('hex');

if (
  process.argv.includes('--if-changed') &&
  existsSync(stampPath) &&
  readFileSync(stampPath, 'utf8') === hash
) {
  process.exit(0);
}

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const result = spawnSync(
  process.execPath,
  ['node_modules/prisma/build/index.js', 'generate', `--schema=${schemaPath}`],
  {
    env,
    stdio: 'inherit',
  },
);
if (result.status !== 0) {
  console.error('prisma generate failed');
  process.exit(result.status ?? 1);
}
writeFileSync(stampPath, hash);
