// Raw SQL kept in `.sql` files, with types generated from the database itself (scripts/sql-types.ts
// prepares each file against a migrated database and writes `<name>.ts` beside it). The generated
// module calls `typedSql` with the statement, its parameters' and result row's types and its
// columns; callers run it through Prisma, a `pg` pool or a SQL transaction (./sql-transaction.ts)
// without writing a type by hand. Raw SQL is not tenant-scoped by the Prisma extension: every such
// statement names the tenant itself.
import type pg from 'pg';
import { isSqlTx, type SqlTx } from './sql-transaction';
import { statementName } from './statement-names';

/** Prisma's raw entry points (the client, a tenant scope, or a transaction of either). */
export interface RawQueryable {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** Where `rows` and `execute` run: through Prisma, or as a prepared statement in a SQL transaction. */
export type Queryable = RawQueryable | SqlTx;

export interface TypedSql<P extends readonly unknown[], R> {
  /** The file's name (`load-delivery`), and the prepared statement's name when one is used. */
  readonly name: string;
  readonly text: string;
  /** The result columns, in order (empty for a statement that returns none). */
  readonly columns: readonly (keyof R & string)[];
  /** The rows, through Prisma or in a SQL transaction. */
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
  return {
    ...statement,
    rows: async (db, ...values) =>
      isSqlTx(db)
        ? (await query(db.client, values, true)).rows
        : db.$queryRawUnsafe<R[]>(statement.text, ...values),
    execute: async (db, ...values) =>
      isSqlTx(db)
        ? ((await query(db.client, values, true)).rowCount ?? 0)
        : db.$executeRawUnsafe(statement.text, ...values),
    pgRows: async (client, values, options = {}) =>
      (await query(client, values, options.prepared ?? false)).rows,
  };
}
