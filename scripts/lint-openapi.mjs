// `npm run lint:openapi`: writes the generated OpenAPI document to a temporary file and lints it with
// Redocly CLI's recommended rules (redocly.yaml). Any error fails the run (exit code of redocly).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-openapi-'));
const file = path.join(dir, 'openapi.json');
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
const run = (command, args) => spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;

let status = run(process.execPath, ['--import', 'tsx', 'scripts/write-openapi.ts', file]);
if (status === 0) status = run(path.join('node_modules', '.bin', 'redocly'), ['lint', file]);
rmSync(dir, { recursive: true, force: true });
process.exit(status);
