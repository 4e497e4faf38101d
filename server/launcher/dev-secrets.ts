import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Development only: AUTH_SECRET and SECRETS_KEY are generated once and kept under DATA_DIR, so
 * `npm run dev` needs no setup and tokens and encrypted secrets survive restarts. Production
 * must set both (the launcher refuses to start otherwise).
 */
export function applyDevSecrets(env: NodeJS.ProcessEnv, dataDir: string): void {
  const file = path.resolve(dataDir, 'secrets.json');
  let stored: Record<string, string> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8'));
  let changed = false;
  for (const name of ['AUTH_SECRET', 'SECRETS_KEY']) {
    if (env[name]) continue;
    if (!stored[name]) {
      stored[name] = randomBytes(32).toString('base64');
      changed = true;
    }
    env[name] = stored[name];
  }
  if (changed) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
}
