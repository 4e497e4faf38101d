import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '@/server/domain/audit/record-audit';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { createEndpoint } from '@/server/webhooks';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';
import { type OutboxTx, recordEvent } from '@/server/webhooks/outbox';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { directDatabaseUrl } from './client';
import { type SqlTx, sqlTransaction, writeTransaction } from './sql-transaction';
import { statementName } from './statement-names';
import { forTenant, TenantScopeError } from './tenant-scope';

// The hot writes' transaction: typed statements and the outbox on one `pg` connection, committed or
// rolled back whole, and joined to the caller's Prisma transaction when an operation runs inside one.
let tenant: TestTenant;
let listener: pg.Client;
let notifications = 0;

beforeAll(async () => {
  tenant = await createTestTenant('sql transaction');
  await createEndpoint(operationContext(tenant.tenantId, SYSTEM_ACTOR), {
    url: 'http://127.0.0.1:9/hook',
    events: ['booking.*'],
  });
  listener = new pg.Client({ connectionString: directDatabaseUrl() });
  await listener.connect();
  listener.on('notification', () => notifications++);
  await listener.query(`listen ${DELIVERIES_CHANNEL}`);
});
afterAll(() => listener.end());

const record = (tx: OutboxTx, id: string) =>
  recordEvent(tx, {
    tenantId: tenant.tenantId,
    type: 'booking.confirmed',
    object: { ...exampleObject('booking.confirmed'), id },
  });
const stored = async (objectId: string) => {
  const db = forTenant(tenant.tenantId);
  const events = await db.event.findMany({
    where: { payload: { path: ['data', 'object', 'id'], equals: objectId } },
  });
  const deliveries = await db.delivery.count({ where: { objectId } });
  return { events: events.length, deliveries };
};
/** NOTIFYs that arrive within `ms` after `run` (PostgreSQL sends them on commit). */
async function notifiedBy(run: () => Promise<unknown>, ms = 300): Promise<number> {
  const before = notifications;
  await run().catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return notifications - before;
}
/** Behind a transaction-mode pooler nothing is named (npm run test:pgbouncer). */
const pooled = () => statementName('probe') === undefined;

describe('sqlTransaction', () => {
  it('commits an event with its deliveries and hand-over, the outbox statement prepared on its connection', async () => {
    let prepared: string[] = [];
    expect(
      await notifiedBy(() =>
        sqlTransaction(tenant.tenantId, async (tx) => {
          await record(tx, 'bkg_sql_committed');
          const { rows } = await tx.client.query<{ name: string }>('select name from pg_prepared_statements');
          prepared = rows.map((r) => r.name);
        }),
      ),
    ).toBe(1);
    expect(await stored('bkg_sql_committed')).toEqual({ events: 1, deliveries: 1 });
    // Behind a transaction-mode pooler (npm run test:pgbouncer) nothing is named.
    expect(prepared.includes('switchboard_insert_event')).toBe(!pooled());
  });

  it('rolls everything back when the work throws, and rethrows; the connection serves the next one', async () => {
    const failure = new Error('the change fails after its event');
    let thrown: unknown;
    expect(
      await notifiedBy(() =>
        sqlTransaction(tenant.tenantId, async (tx) => {
          await record(tx, 'bkg_sql_rolled_back');
          throw failure;
        }).catch((error) => {
          thrown = error;
        }),
      ),
    ).toBe(0);
    expect(thrown).toBe(failure);
    expect(await stored('bkg_sql_rolled_back')).toEqual({ events: 0, deliveries: 0 });
    // A statement that fails inside leaves no aborted transaction on a pooled connection.
    await expect(sqlTransaction(tenant.tenantId, (tx) => tx.client.query('select 1 / 0'))).rejects.toThrow(
      /division by zero/,
    );
    await sqlTransaction(tenant.tenantId, (tx) => record(tx, 'bkg_sql_after_failure'));
    expect(await stored('bkg_sql_after_failure')).toEqual({ events: 1, deliveries: 1 });
  });

  it('needs a tenant UUID', () => {
    expect(() => sqlTransaction('not-a-tenant', async () => undefined)).toThrow(TenantScopeError);
  });
});

describe('writeTransaction', () => {
  const ctx = () => operationContext(tenant.tenantId, SYSTEM_ACTOR);

  it('runs in a SQL transaction of its own when its caller has none', async () => {
    let kind: string | undefined;
    await writeTransaction(ctx(), async (tx) => {
      kind = (tx as SqlTx).kind;
      await record(tx, 'bkg_write_own');
    });
    expect(kind).toBe('sql');
    expect(await stored('bkg_write_own')).toEqual({ events: 1, deliveries: 1 });
  });

  it("joins the caller's Prisma transaction: it commits and rolls back with it", async () => {
    await inTransaction(ctx(), (txCtx) =>
      writeTransaction(txCtx, async (tx) => {
        expect((tx as Partial<SqlTx>).kind).toBeUndefined();
        await record(tx, 'bkg_write_joined');
      }),
    );
    expect(await stored('bkg_write_joined')).toEqual({ events: 1, deliveries: 1 });

    await expect(
      inTransaction(ctx(), async (txCtx) => {
        await writeTransaction(txCtx, (tx) => record(tx, 'bkg_write_joined_rolled_back'));
        throw new Error('the caller fails after the hot write');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await stored('bkg_write_joined_rolled_back')).toEqual({ events: 0, deliveries: 0 });
  });
});
