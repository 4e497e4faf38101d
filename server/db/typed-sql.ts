// Raw SQL kept in `.sql` files, with types generated from the database itself (scripts/sql-types.ts
// prepares each file against a migrated database and writes `<name>.ts` beside it). The generated
// module calls `typedSql` with the statement, its parameters' and result row's types and its
// columns; callers run it in a unit of work (./unit-of-work.ts), through a Prisma client on its own,
// or on a `pg` pool, without writing a type by hand. Raw SQL is not tenant-scoped by the Prisma
// extension: every statement on a tenant's rows names the tenant itself, or says in its header why it
// crosses tenants (`@cross-tenant`; checked by scripts/lib/sql-tenant-filter.ts).
import type pg from 'pg';
import { statementName } from './statement-names';
import { type CrossTenantUnit, isUnitOfWork, runStatement, type UnitOfWork } from './unit-of-work';

/** Prisma's raw entry points (the client, a tenant scope, or a transaction of either). */
export interface RawQueryable {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** Where `rows` and `execute` run: in a unit of work, or on its own through a Prisma client. */
export type Queryable = UnitOfWork | CrossTenantUnit | RawQueryable;

export interface TypedSql<P extends readonly unknown[], R> {
  /** The file's name (`load-delivery`), and the prepared statement's name when one is used. */
  readonly name: string;
  readonly text: string;
  /** The result columns, in order (empty for a statement that returns none). */
  readonly columns: readonly (keyof R & string)[];
  /** The rows, in a unit of work or through a Prisma client. */
  rows(db: Queryable, ...values: P): Promise<R[]>;
  /** How many rows the statement changed (for statements without result columns). */
  execute(db: Queryable, ...values: P): Promise<number>;
  /**
   * The rows, through a `pg` pool or client. `prepared`: a named statement, parsed and planned once
   * per connection (unnamed behind a transaction-mode pooler, see server/db/pool.ts).
   */
  pgRows(client: Pick<pg.Pool, 'query'>, values: P, options?: { prepared?: boolean }): Promise<R[]>;
}

export function typedSql<P extends readonly unknown[], R>(statement: {
  name: string;
  text: string;
  columns: readonly (keyof R & string)[];
}): TypedSql<P, R> {
  const preparedName = `switchboard_${statement.name.replaceAll('-', '_')}`;
  const query = (client: Pick<pg.Pool, 'query'>, values: P, prepared: boolean) => {
    const name = prepared ? statementName(preparedName) : undefined;
    return client.query<R & pg.QueryResultRow>({
      ...(name ? { name } : {}),
      text: statement.text,
      values: [...values],
    });
  };
  const prepared = { text: statement.text, preparedName };
  return {
    ...statement,
    rows: async (db, ...values) =>
      isUnitOfWork(db)
        ? ((await runStatement(db, prepared, [...values], 'rows')).rows as R[])
        : db.$queryRawUnsafe<R[]>(statement.text, ...values),
    execute: async (db, ...values) =>
      isUnitOfWork(db)
        ? (await runStatement(db, prepared, [...values], 'count')).count
        : db.$executeRawUnsafe(statement.text, ...values),
    pgRows: async (client, values, options = {}) =>
      (await query(client, values, options.prepared ?? false)).rows,
  };
}
