// The typed client's types (sdk/openapi.d.ts), generated with openapi-typescript from the OpenAPI
// document. `node scripts/client-types.mjs` rewrites them; `--check` (npm run lint, so CI) fails
// when the committed file is not what the current document generates.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const TARGET = path.join('sdk', 'openapi.d.ts');
const check = process.argv.includes('--check');
const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-client-'));
const doc = path.join(dir, 'openapi.json');
const out = check ? path.join(dir, 'openapi.d.ts') : TARGET;
const run = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;

let status = run(process.execPath, ['--import', 'tsx', 'scripts/write-openapi.ts', doc]);
if (status === 0) status = run(path.join('node_modules', '.bin', 'openapi-typescript'), [doc, '-o', out]);
if (status === 0 && check && readFileSync(out, 'utf8') !== readFileSync(TARGET, 'utf8')) {
  console.error(`${TARGET} is out of date: run \`npm run client:types\` and commit it.`);
  status = 1;
}
rmSync(dir, { recursive: true, force: true });
process.exit(status);
