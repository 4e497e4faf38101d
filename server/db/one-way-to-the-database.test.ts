import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Outside server/db/, product code reaches the database one way: a transaction is
// `transaction(scope, work)` (./unit-of-work.ts), never Prisma's `$transaction(` or a `BEGIN` sent
// on a pg client; raw SQL is a typed `.sql` file (./typed-sql.ts), never an inline `$queryRaw`,
// `$executeRaw` or `Prisma.sql`. Tests may hold a lock on a raw client of their own (they are not
// product code), so *.test.ts files are not read.

const RULES: { name: string; pattern: RegExp }[] = [
  { name: "Prisma's $transaction", pattern: /\$transaction\s*\(/ },
  { name: 'a BEGIN on a pg client', pattern: /['"`]\s*(begin|start\s+transaction)\b/i },
  { name: 'inline raw SQL', pattern: /\$(query|execute)Raw(Unsafe)?\b|Prisma\.sql\b/ },
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== path.join('server', 'db') && entry.name !== 'generated') sourceFiles(full, out);
    } else if (/\.(ts|tsx|sql)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

/** `file: rule` for every rule a source breaks; comments count too (they are where SQL gets pasted). */
function offences(files: { path: string; text: string }[]): string[] {
  return files.flatMap((file) =>
    RULES.filter((rule) => rule.pattern.test(file.text)).map((rule) => `${file.path}: ${rule.name}`),
  );
}

describe('one way to the database', () => {
  it('outside server/db/, no transaction but transaction() and no raw SQL but .sql files', () => {
    const files = sourceFiles('server').map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(offences(files)).toEqual([]);
  });

  it('would catch each of them', () => {
    const broken = [
      { path: 'a.ts', text: 'await ctx.db.$transaction(async (tx) => tx.booking.create(data));' },
      { path: 'b.ts', text: "const client = await pool.connect();\nawait client.query('BEGIN');" },
      { path: 'c.ts', text: 'await client.query(`start transaction isolation level serializable`);' },
      { path: 'd.ts', text: 'await db.$queryRaw`select 1 from bookings where id = 1`;' },
      { path: 'e.ts', text: "await tx.$executeRawUnsafe('delete from timers where id = $1', id);" },
      { path: 'f.ts', text: 'const where = Prisma.sql`tenant_id = $1::uuid`;' },
    ];
    expect(offences(broken)).toEqual([
      "a.ts: Prisma's $transaction",
      'b.ts: a BEGIN on a pg client',
      'c.ts: a BEGIN on a pg client',
      'd.ts: inline raw SQL',
      'e.ts: inline raw SQL',
      'f.ts: inline raw SQL',
    ]);
    // What product code writes instead passes.
    expect(
      offences([{ path: 'g.ts', text: 'await transaction(ctx, async (tx) => insertBooking.rows(tx, id));' }]),
    ).toEqual([]);
  });
});
