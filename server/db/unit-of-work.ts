// The one way to run an operation's statements in a transaction: `transaction(scope, work)`. `work`
// gets a unit of work, and the unit begins at its first use with the kind of transaction that use
// needs, so no caller chooses one:
// - a typed statement first (./typed-sql.ts, the `.sql` files): a transaction on the raw `pg` pool
//   (./pool.ts), every statement named and prepared once per connection. The hot writes (a WhatsApp
//   receipt, a free-form booking) are a few statements and an event: Prisma's interactive
//   transaction cost them two to three times the Node CPU.
// - `await tx.orm()` first: Prisma's interactive transaction of the tenant's scoped client
//   (./tenant-scope.ts), in which later typed statements run too. Asking for it once a `pg`
//   transaction began is a programming error (UnitOfWorkError): ask for `orm()` first.
// Nothing used, nothing begun. The unit commits when `work` resolves and rolls back when it throws
// (the error rethrown). An operation called inside another's unit joins it: the operation context
// carries the open unit (`ctx.tx`, server/domain/context.ts) and `transaction(ctx, work)` runs `work`
// in it. Cross-tenant work (sign-in sessions, tenant creation) names why in its scope
// (`crossTenant(why)`) and gets the unscoped client from `orm()`. Typed statements are raw SQL,
// which the tenant scope does not reach: each names the tenant itself (the `.sql` files are checked
// for it by scripts/lib/sql-tenant-filter.ts, in `npm run lint` and the tests).
import type pg from 'pg';
import { isUuid } from '@/server/lib/ids';
import { db, type Tx } from './client';
import { pgPool, pgTransaction } from './pool';
import { statementName } from './statement-names';
import { forTenant, TenantScopeError, type TenantTx } from './tenant-scope';

/** A programming error in the use of a unit of work (not a database failure). */
export class UnitOfWorkError extends Error {}

interface Unit<Client> {
  /**
   * The transaction's Prisma client, beginning Prisma's interactive transaction when nothing ran yet.
   * Throws UnitOfWorkError once typed statements began a `pg` transaction.
   */
  orm(): Promise<Client>;
  /**
   * Runs `work` inside a savepoint: when it throws, what it did is rolled back and the transaction
   * goes on (the error rethrown), e.g. after a constraint refused one write.
   */
  savepoint<T>(work: () => Promise<T>): Promise<T>;
}

/** One tenant's unit of work: typed statements take it, `orm()` is the tenant-scoped client. */
export interface UnitOfWork extends Unit<TenantTx> {
  readonly tenantId: string;
}

/** A unit of work across tenants by design: `orm()` is the unscoped client. */
export interface CrossTenantUnit extends Unit<Tx> {
  readonly tenantId: null;
}

/** What a transaction runs for: one tenant (an operation context is one), possibly inside an open unit. */
export interface TenantScope {
  readonly tenantId: string;
  /** The unit this runs inside: `transaction()` joins it instead of beginning another. */
  readonly tx?: UnitOfWork;
}

/** Work across tenants by design, saying why (`crossTenant('sign-in sessions')`). */
export interface CrossTenantScope {
  readonly crossTenant: string;
}

export function crossTenant(why: string): CrossTenantScope {
  return { crossTenant: why };
}

export interface TransactionOptions {
  /** Prisma's interactive transaction only: ms until it is rolled back (default 15 s). */
  timeout?: number;
  /** Prisma's interactive transaction only: ms to wait for a connection to begin it (default 2 s). */
  maxWait?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Runs `work` in one transaction (see the top of this file): a new unit of `scope`, or the open unit
 * `scope.tx` that it joins (it then commits or rolls back with that unit; `options` do not apply).
 */
export function transaction<T>(
  scope: TenantScope,
  work: (tx: UnitOfWork) => Promise<T>,
  options?: TransactionOptions,
): Promise<T>;
export function transaction<T>(
  scope: CrossTenantScope,
  work: (tx: CrossTenantUnit) => Promise<T>,
  options?: TransactionOptions,
): Promise<T>;
export function transaction<T>(
  scope: TenantScope | CrossTenantScope,
  work: (tx: never) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  if ('crossTenant' in scope) return run(new UnitImpl(null, options), work);
  const { tenantId, tx } = scope;
  if (typeof tenantId !== 'string' || !isUuid(tenantId)) {
    throw new TenantScopeError(`transaction() needs a tenant UUID, got ${JSON.stringify(tenantId)}`);
  }
  if (tx) {
    if (tx.tenantId !== tenantId)
      throw new TenantScopeError(`the open unit of work is tenant ${tx.tenantId}'s, not ${tenantId}'s`);
    return (work as (tx: UnitOfWork) => Promise<T>)(tx);
  }
  return run(new UnitImpl(tenantId, options), work);
}

async function run<T>(unit: UnitImpl, work: (tx: never) => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await work(unit as never);
  } catch (error) {
    await unit.end(error);
    throw error;
  }
  await unit.end();
  return result;
}

type Begun =
  | { kind: 'sql'; client: Promise<pg.PoolClient> }
  | { kind: 'orm'; client: Promise<TenantTx | Tx> };

class UnitImpl implements Unit<TenantTx | Tx> {
  #begun: Begun | undefined;
  #ended = false;
  /** Settles the transaction's callback: resolved to commit, rejected to roll back. */
  #settle: { commit(): void; rollback(error: unknown): void } | undefined;
  /** The transaction itself: resolves once committed, rejects when it failed or was rolled back. */
  #done: Promise<void> | undefined;
  #savepoints = 0;

  constructor(
    readonly tenantId: string | null,
    private readonly options: TransactionOptions,
  ) {}

  orm(): Promise<TenantTx | Tx> {
    this.#assertOpen();
    if (this.#begun?.kind === 'sql') {
      throw new UnitOfWorkError(
        'orm() was asked for after typed statements began a pg transaction: a unit that needs Prisma asks for orm() before its first statement',
      );
    }
    if (!this.#begun) {
      const { tenantId } = this;
      const options = { timeout: this.options.timeout ?? DEFAULT_TIMEOUT_MS, maxWait: this.options.maxWait };
      this.#begun = {
        kind: 'orm',
        client: this.#begin<TenantTx | Tx>((ready, settled) => {
          const callback = async (tx: TenantTx | Tx) => {
            ready(tx);
            await settled;
          };
          return tenantId === null
            ? db().$transaction(callback, options)
            : forTenant(tenantId).$transaction(callback, options);
        }),
      };
    }
    return this.#begun.client;
  }

  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const name = `unit_savepoint_${++this.#savepoints}`;
    await this.utility(`savepoint ${name}`);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await this.utility(`rollback to savepoint ${name}`);
      throw error;
    }
    await this.utility(`release savepoint ${name}`);
    return result;
  }

  /** A typed statement (./typed-sql.ts): its rows and the count of rows it changed. */
  async statement(
    text: string,
    values: unknown[],
    preparedName: string,
    want: 'rows' | 'count',
  ): Promise<{ rows: unknown[]; count: number }> {
    const begun = this.#statements();
    if (begun.kind === 'sql') {
      const name = statementName(preparedName);
      const result = await (await begun.client).query({ ...(name ? { name } : {}), text, values });
      return { rows: result.rows, count: result.rowCount ?? 0 };
    }
    const client = await begun.client;
    if (want === 'rows') return { rows: await client.$queryRawUnsafe<unknown[]>(text, ...values), count: 0 };
    return { rows: [], count: await client.$executeRawUnsafe(text, ...values) };
  }

  /** A statement of the transaction's own (savepoints), not prepared. */
  private async utility(text: string): Promise<void> {
    const begun = this.#statements();
    if (begun.kind === 'sql') await (await begun.client).query(text);
    else await (await begun.client).$executeRawUnsafe(text);
  }

  /** Where statements run: the transaction begun, or a `pg` one begun now. */
  #statements(): Begun {
    this.#assertOpen();
    this.#begun ??= {
      kind: 'sql',
      client: this.#begin<pg.PoolClient>((ready, settled) =>
        pgTransaction(pgPool(), async (client) => {
          ready(client);
          await settled;
        }),
      ),
    };
    return this.#begun;
  }

  /**
   * Begins a callback-scoped transaction (`open`) whose callback hands over its client (`ready`) and
   * then waits for `settled`: resolved by `end()` to commit, rejected to roll back.
   */
  #begin<C>(open: (ready: (client: C) => void, settled: Promise<void>) => Promise<unknown>): Promise<C> {
    let ready!: (client: C) => void;
    let failed!: (error: unknown) => void;
    const client = new Promise<C>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    const settled = new Promise<void>((commit, rollback) => {
      this.#settle = { commit, rollback };
    });
    settled.catch(() => undefined); // rejected on purpose to roll back; the callback sees it
    this.#done = open(ready, settled).then(
      () => undefined,
      (error) => {
        failed(error); // it failed before handing over its client (no connection, no BEGIN)
        throw error;
      },
    );
    this.#done.catch(() => undefined); // read by end()
    return client;
  }

  /** Commits (no `error`) or rolls back; a failed commit throws. Nothing to do when nothing began. */
  async end(...error: [] | [unknown]): Promise<void> {
    this.#ended = true;
    if (!this.#settle || !this.#done) return;
    if (error.length > 0) {
      this.#settle.rollback(error[0]);
      await this.#done.catch(() => undefined); // the work's own error is the one rethrown
    } else {
      this.#settle.commit();
      await this.#done;
    }
  }

  #assertOpen() {
    if (this.#ended) throw new UnitOfWorkError('this unit of work has ended: its transaction is over');
  }
}

export function isUnitOfWork(value: unknown): value is UnitOfWork | CrossTenantUnit {
  return value instanceof UnitImpl;
}

/** Runs a typed statement in `unit` (for ./typed-sql.ts). */
export function runStatement(
  unit: UnitOfWork | CrossTenantUnit,
  statement: { text: string; preparedName: string },
  values: unknown[],
  want: 'rows' | 'count',
): Promise<{ rows: unknown[]; count: number }> {
  return (unit as unknown as UnitImpl).statement(statement.text, values, statement.preparedName, want);
}
