import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaimDeliveriesRow, claimDeliveries } from '@/server/runtime/deliveries/sql/claim-deliveries';
import type { LoadedDelivery } from '@/server/webhooks/attempt/run-attempt';
import { loadDelivery } from '@/server/webhooks/attempt/sql/load-delivery';
import {
  describeStatement,
  findSqlFiles,
  formatTypeScript,
  generateModule,
  statementText,
} from './lib/sql-types';

// The typed SQL modules (scripts/lib/sql-types.ts) against this run's migrated database: each is what
// the generator writes from its .sql file, so a stale or hand-edited type fails here (and in
// `npm run lint`, which runs `npm run sql:check` on a database of its own).
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DIRECT_URL || process.env.DATABASE_URL });
  await client.connect();
});
afterAll(() => client.end());

const files = findSqlFiles();
const generated = async (file: (typeof files)[number]) =>
  formatTypeScript(await generateModule(client, file), file.modulePath);

describe('typed SQL modules', () => {
  it('exist for the hot path and the hot writes', () => {
    const paths = files.map((f) => f.sqlPath);
    for (const name of [
      'server/webhooks/attempt/sql/load-delivery.sql',
      'server/webhooks/attempt/sql/record-attempts.sql',
      'server/domain/bookings/sql/insert-booking.sql',
      'server/domain/conversations/sql/update-outbound-status.sql',
      'server/timers/sql/set-timers.sql',
      'server/runtime/deliveries/sql/claim-deliveries.sql',
      'server/webhooks/deliveries/sql/endpoint-attempt-buckets.sql',
      'server/webhooks/deliveries/sql/tenant-attempt-buckets.sql',
    ]) {
      expect(paths).toContain(name);
    }
  });

  it.each(files.map((f) => [f.sqlPath, f] as const))(
    '%s: its module is what the generator writes',
    async (_, file) => {
      expect(readFileSync(file.modulePath, 'utf8')).toBe(await generated(file));
    },
  );

  it('fail for a column added to the SQL without its type, and for a type edited without the SQL', async () => {
    const file = files.find((f) => f.sqlPath.endsWith('/load-delivery.sql'));
    if (!file) throw new Error('load-delivery.sql is missing');
    const committed = readFileSync(file.modulePath, 'utf8');
    // The SQL gains a column: the committed module no longer matches what it generates.
    const widened = {
      ...file,
      source: file.source.replace('d.traceparent,', 'd.traceparent, d.created_at as "createdAt",'),
    };
    const regenerated = await generated(widened);
    expect(regenerated).toContain('createdAt: Date;');
    expect(committed).not.toBe(regenerated);
    // The type loses a column by hand: it no longer matches what the SQL generates.
    const edited = committed.replace('  traceparent: string | null;\n', '');
    expect(edited).not.toBe(committed);
    expect(edited).not.toBe(await generated(file));
  });

  it("the claim and the load return exactly LoadedDelivery's columns, in the same order", async () => {
    const described = async (text: string) =>
      (await describeStatement(client, text)).fields.map((f) => f.name);
    const loadSql = files.find((f) => f.sqlPath.endsWith('/load-delivery.sql'));
    const claimSql = files.find((f) => f.sqlPath.endsWith('/claim-deliveries.sql'));
    if (!loadSql || !claimSql) throw new Error('a hot-path .sql file is missing');
    expect(await described(statementText(loadSql))).toEqual([...loadDelivery.columns]);
    expect(await described(statementText(claimSql))).toEqual([...loadDelivery.columns]);
    expect([...claimDeliveries.columns]).toEqual([...loadDelivery.columns]);
    // And at compile time: a claimed row is a LoadedDelivery and the other way round.
    const both: [ClaimDeliveriesRow, LoadedDelivery] = [{} as LoadedDelivery, {} as ClaimDeliveriesRow];
    expect(both).toHaveLength(2);
  });
});
