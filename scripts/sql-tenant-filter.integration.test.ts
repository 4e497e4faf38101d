import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_MODELS } from '@/server/db/tenant-scope';
import { tenantFilterProblems, tenantTables } from './lib/sql-tenant-filter';
import { findSqlFiles, parseHeader, type SqlFile } from './lib/sql-types';

// Every `.sql` statement on a tenant's rows names the tenant (scripts/lib/sql-tenant-filter.ts, also
// run by `npm run sql:types` and so by `npm run lint`), planned on this run's migrated database; a
// statement that crosses tenants by design says why in its header.
let client: pg.Client;
let tenant: Set<string>;
beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DIRECT_URL || process.env.DATABASE_URL });
  await client.connect();
  tenant = await tenantTables(client);
});
afterAll(() => client.end());

const files = findSqlFiles();
const fixture = (source: string): SqlFile => ({ sqlPath: 'fixture.sql', modulePath: 'fixture.ts', source });
const problems = (source: string) => tenantFilterProblems(client, fixture(source), tenant);

describe('the tenant filter of raw SQL', () => {
  it('covers the tables of every model the tenant scope narrows (server/db/tenant-scope.ts)', () => {
    const tableOfModel = new Map<string, string>();
    let model = '';
    for (const line of readFileSync('prisma/schema.prisma', 'utf8').split('\n')) {
      model = /^model (\w+) \{/.exec(line)?.[1] ?? model;
      const map = /^\s*@@map\("(\w+)"\)/.exec(line);
      if (map) tableOfModel.set(model, map[1]);
    }
    const tableOf = (name: string) => tableOfModel.get(name);
    const tables = [...TENANT_MODELS].map(tableOf);
    expect(tables).not.toContain(undefined);
    for (const table of tables) expect(tenant).toContain(table);
  });

  it.each(files.map((f) => [f.sqlPath, f] as const))(
    '%s names its tenant, or says why it crosses tenants',
    async (_, file) => {
      expect(await tenantFilterProblems(client, file, tenant)).toEqual([]);
    },
  );

  it('fails for a statement of the code with its tenant condition taken out', async () => {
    const file = files.find((f) => f.sqlPath.endsWith('/service-reminders.sql'));
    if (!file) throw new Error('service-reminders.sql is missing');
    const forgotten = file.source.replace('tenant_id = $1::uuid and ', '');
    expect(forgotten).not.toBe(file.source);
    expect(await problems(forgotten)).toEqual([
      'reads services without its tenant: no condition ties its tenant_id to the tenantId parameter',
    ]);
  });

  it('fails for a table of a join that is not tied to the tenant, or tied to another parameter', async () => {
    expect(
      await problems(`-- @param tenantId
-- @param bookingId
select p.id from bookings b join payments p on p.booking_id = b.id
where b.tenant_id = $1::uuid and b.id = $2::text`),
    ).toEqual([
      'reads payments (as p) without its tenant: no condition ties its tenant_id to the tenantId parameter',
    ]);
    expect(
      await problems(`-- @param tenantId
-- @param otherTenantId
select id from bookings where tenant_id = $2::uuid`),
    ).toEqual([
      'reads bookings without its tenant: no condition ties its tenant_id to the tenantId parameter',
    ]);
    expect(
      await problems(`-- @param id
update timers set fired_at = now() where id = $1::text`),
    ).toEqual(['reads timers without its tenant: no condition ties its tenant_id to the tenantId parameter']);
  });

  it('fails for an insert into a tenant table that does not name tenant_id', async () => {
    expect(
      await problems(`-- @param id
-- @param action
insert into audit_log (id, action) values ($1::text, $2::text)`),
    ).toEqual(['inserts into audit_log without naming its tenant_id']);
  });

  it("passes a join tied through another table's tenant, and a lateral tied to its outer row", async () => {
    expect(
      await problems(`-- @param tenantId
-- @param bookingId
select p.id from bookings b join payments p on p.booking_id = b.id and p.tenant_id = b.tenant_id
where b.tenant_id = $1::uuid and b.id = $2::text`),
    ).toEqual([]);
    expect(
      await problems(`-- @param tenantId
select e.id, last.started_at from webhook_endpoints e
left join lateral (
  select a.started_at from delivery_attempts a
  where a.tenant_id = e.tenant_id and a.endpoint_id = e.id order by a.started_at desc limit 1
) last on true
where e.tenant_id = $1::uuid`),
    ).toEqual([]);
  });

  it('exempts a statement whose header says why it crosses tenants, and needs the reason', async () => {
    const sql = `-- Every tenant's pending deliveries.
-- @cross-tenant an operator's figure
select count(*)::int as n from deliveries where status = 'pending'`;
    expect(await problems(sql)).toEqual([]);
    expect(await problems(sql.replace("-- @cross-tenant an operator's figure\n", ''))).toEqual([
      'reads deliveries without its tenant: no condition ties its tenant_id to the tenantId parameter',
    ]);
    expect(() => parseHeader(fixture('-- @cross-tenant\nselect 1'))).toThrow(/needs its reason/);
  });
});
