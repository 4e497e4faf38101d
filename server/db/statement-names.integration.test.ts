import { afterEach, describe, expect, it } from 'vitest';
import { db } from './client';
import { prismaStatementNames, statementName } from './statement-names';

const saved = { DIRECT_URL: process.env.DIRECT_URL, DATABASE_URL: process.env.DATABASE_URL };
afterEach(() => {
  if (saved.DIRECT_URL === undefined) delete process.env.DIRECT_URL;
  else process.env.DIRECT_URL = saved.DIRECT_URL;
});

describe('statement names', () => {
  it('name each distinct text once, the same name every time, and none past the cap', () => {
    process.env.DIRECT_URL = saved.DATABASE_URL;
    const name = prismaStatementNames(2);
    expect(name).toBeDefined();
    const named = name as (query: { sql: string }) => string;
    const a = named({ sql: 'select 1' });
    const b = named({ sql: 'select 2' });
    expect(a).not.toBe(b);
    expect(named({ sql: 'select 1' })).toBe(a);
    expect(named({ sql: 'select 3' })).toBe(''); // PostgreSQL's unnamed statement
    expect(named({ sql: 'select 2' })).toBe(b);
  });

  it('are not used behind a transaction-mode pooler (DIRECT_URL apart from DATABASE_URL)', () => {
    process.env.DIRECT_URL = `${saved.DATABASE_URL}&direct`;
    expect(prismaStatementNames()).toBeUndefined();
    expect(statementName('switchboard_x')).toBeUndefined();
    process.env.DIRECT_URL = saved.DATABASE_URL;
    expect(prismaStatementNames()).toBeDefined();
    expect(statementName('switchboard_x')).toBe('switchboard_x');
  });

  // The suite runs directly and again behind PgBouncer in transaction mode (npm run test:pgbouncer).
  it("name Prisma's queries, which each connection keeps prepared (none behind a pooler)", async () => {
    const pooled = Boolean(saved.DIRECT_URL) && saved.DIRECT_URL !== saved.DATABASE_URL;
    // Sequential queries reuse the pool's last idle connection, which prepared the first one.
    const look = () =>
      db().$queryRaw<
        { name: string; statement: string }[]
      >`select name, statement from pg_prepared_statements`;
    await look();
    const ours = (await look()).filter((p) => p.name.startsWith('prisma_'));
    if (pooled) expect(ours).toEqual([]);
    else expect(ours.some((p) => p.statement.includes('pg_prepared_statements'))).toBe(true);
  });
});
