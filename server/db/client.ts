// The one database client of the process (on globalThis, so Next's dev reloads reuse it). Tenant
// data is not read through this directly: use `forTenant()` from ./tenant-scope.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';
import { guardUndefinedWhere } from './guards';
import { prismaStatementNames } from './statement-names';

/**
 * Connections per pool and instance (Prisma's, and the raw `pg` pool's of ./pool.ts): a serverless
 * function wants few (the pooler multiplexes them).
 */
export function poolSize(): number {
  const fallback = process.env.VERCEL || process.env.SERVERLESS === 'true' ? 3 : 10;
  return Number(process.env.DATABASE_POOL_MAX || fallback);
}

function createClient(url: string) {
  const max = poolSize();
  // Every query a named statement per connection (parsed and planned once), except behind a pooler.
  const statementNameGenerator = prismaStatementNames();
  const adapter = new PrismaPg(
    { connectionString: url, max },
    statementNameGenerator ? { statementNameGenerator } : undefined,
  );
  return new PrismaClient({ adapter }).$extends(guardUndefinedWhere);
}

export type Db = ReturnType<typeof createClient>;
/** The unscoped client inside a transaction (a cross-tenant unit of work's, ./unit-of-work.ts), without `$transaction`. */
export type Tx = Omit<Parameters<Parameters<Db['$transaction']>[0]>[0], '$transaction'>;

const holder = globalThis as unknown as { __switchboardDb?: { url: string; client: Db } };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start the service with `npm run dev` or `npm start`');
  return url;
}

/**
 * The direct (session-mode) URL for what a transaction-mode pooler cannot carry: migrations (one
 * transaction and an advisory lock per migration) and LISTEN. DIRECT_URL when set, else DATABASE_URL.
 */
export function directDatabaseUrl(): string {
  return process.env.DIRECT_URL || databaseUrl();
}

export function db(): Db {
  const url = databaseUrl();
  if (!holder.__switchboardDb || holder.__switchboardDb.url !== url) {
    holder.__switchboardDb = { url, client: createClient(url) };
  }
  return holder.__switchboardDb.client;
}

export async function disconnectDb(): Promise<void> {
  const current = holder.__switchboardDb;
  holder.__switchboardDb = undefined;
  await current?.client.$disconnect();
}
