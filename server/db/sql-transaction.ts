// A transaction on the raw `pg` pool for the hot writes: an operation whose change is a few typed
// statements (./typed-sql.ts) and an event (server/webhooks/outbox.ts) runs them here as named,
// prepared statements on one connection, without Prisma's interactive-transaction machinery, which
// cost two to three times the Node CPU for the outbox write alone (docs/architecture.md,
// "Transactions"). Every other operation keeps Prisma. Like all raw SQL, a statement
// run here is not scoped by ./tenant-scope.ts: each names the tenant itself, taken from `tx.tenantId`.
import type pg from 'pg';
import { isUuid } from '@/server/lib/ids';
import { inTransaction, pgPool } from './pool';
import { type TenantDb, TenantScopeError, type TenantTx } from './tenant-scope';

/** One tenant's transaction on a `pg` connection (typed statements take it where they take Prisma's). */
export interface SqlTx {
  readonly kind: 'sql';
  readonly tenantId: string;
  readonly client: pg.PoolClient;
}

export function isSqlTx(value: unknown): value is SqlTx {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'sql';
}

/** A transaction a hot write runs in: a SQL transaction, or the Prisma transaction it was called in. */
export type WriteTx = SqlTx | TenantTx;

/**
 * The Prisma transaction a tenant client stands in for, when an operation runs inside its caller's
 * transaction (server/domain/audit/record-audit.ts hands it such a client as `ctx.db`).
 */
export const JOINED_TRANSACTION = Symbol('switchboard.joinedTransaction');

/**
 * Runs a hot write: in the caller's Prisma transaction when `scope.db` joins one (so it commits or
 * rolls back with the rest of it), else in a SQL transaction of its own. `work` may use only what
 * runs in both: typed statements and the outbox.
 */
export function writeTransaction<T>(
  scope: { tenantId: string; db: TenantDb },
  work: (tx: WriteTx) => Promise<T>,
): Promise<T> {
  const joined = (scope.db as { [JOINED_TRANSACTION]?: TenantTx })[JOINED_TRANSACTION];
  return joined ? work(joined) : sqlTransaction(scope.tenantId, work);
}

/**
 * Runs `work` in one transaction of `tenantId`: committed when it resolves, rolled back when it
 * throws (and the error rethrown).
 */
export function sqlTransaction<T>(tenantId: string, work: (tx: SqlTx) => Promise<T>): Promise<T> {
  if (typeof tenantId !== 'string' || !isUuid(tenantId)) {
    throw new TenantScopeError(`sqlTransaction() needs a tenant UUID, got ${JSON.stringify(tenantId)}`);
  }
  return inTransaction(pgPool(), (client) => work({ kind: 'sql', tenantId, client }));
}
