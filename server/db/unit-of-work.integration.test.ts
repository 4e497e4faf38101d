import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '@/server/domain/audit/record-audit';
import { inUnit, operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { exampleObject } from '@/server/events/payloads';
import { createEndpoint } from '@/server/webhooks';
import { DELIVERIES_CHANNEL } from '@/server/webhooks/hand-over';
import { recordEvent } from '@/server/webhooks/outbox';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { directDatabaseUrl } from './client';
import { pgPool } from './pool';
import { statementName } from './statement-names';
import { forTenant, TenantScopeError } from './tenant-scope';
import { typedSql } from './typed-sql';
import { crossTenant, transaction, type UnitOfWork, UnitOfWorkError } from './unit-of-work';

// The one unit of work: it begins at its first use (a typed statement: a pg transaction with named
// statements; `orm()`: Prisma's interactive transaction, in which statements run too), commits or
// rolls back whole, and an operation called inside another's joins it.
let tenant: TestTenant;
let other: TestTenant;
let listener: pg.Client;
let notifications = 0;

beforeAll(async () => {
  tenant = await createTestTenant('unit of work');
  other = await createTestTenant('unit of work, another tenant');
  await forTenant(other.tenantId).channel.create({
    data: { id: 'chn_unit_other', tenantId: other.tenantId, type: 'web' },
  });
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

const ctx = () => operationContext(tenant.tenantId, SYSTEM_ACTOR);
const record = (tx: UnitOfWork, id: string) =>
  recordEvent(tx, {
    tenantId: tenant.tenantId,
    type: 'booking.confirmed',
    object: { ...exampleObject('booking.confirmed'), id },
  });
const stored = async (objectId: string) => {
  const db = forTenant(tenant.tenantId);
  const events = await db.event.count({
    where: { payload: { path: ['data', 'object', 'id'], equals: objectId } },
  });
  const deliveries = await db.delivery.count({ where: { objectId } });
  return { events, deliveries };
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

// Statements of this test only, to look at the transaction from inside.
const preparedStatements = typedSql<[], { name: string }>({
  name: 'test-prepared-statements',
  text: 'select name from pg_prepared_statements',
  columns: ['name'],
});
const backend = typedSql<[], { pid: number }>({
  name: 'test-backend',
  text: 'select pg_backend_pid() as pid',
  columns: ['pid'],
});
const divideByZero = typedSql<[], { n: number }>({
  name: 'test-fails',
  text: 'select 1 / 0 as n',
  columns: ['n'],
});
const channelNamed = typedSql<[string], { id: string }>({
  name: 'test-channel-named',
  text: 'select id from channels where id = $1',
  columns: ['id'],
});

describe('a unit whose first use is a typed statement', () => {
  it('is one pg transaction: the event, its deliveries and hand-over commit together, the statements prepared on its connection', async () => {
    let prepared: string[] = [];
    expect(
      await notifiedBy(() =>
        transaction(ctx(), async (tx) => {
          await record(tx, 'bkg_unit_committed');
          prepared = (await preparedStatements.rows(tx)).map((r) => r.name);
        }),
      ),
    ).toBe(1);
    expect(await stored('bkg_unit_committed')).toEqual({ events: 1, deliveries: 1 });
    expect(prepared.includes('switchboard_insert_event')).toBe(!pooled());
  });

  it('rolls everything back when the work throws, and rethrows; the connection serves the next one', async () => {
    const failure = new Error('the change fails after its event');
    let thrown: unknown;
    expect(
      await notifiedBy(() =>
        transaction(ctx(), async (tx) => {
          await record(tx, 'bkg_unit_rolled_back');
          throw failure;
        }).catch((error) => {
          thrown = error;
        }),
      ),
    ).toBe(0);
    expect(thrown).toBe(failure);
    expect(await stored('bkg_unit_rolled_back')).toEqual({ events: 0, deliveries: 0 });
    // A statement that fails inside leaves no aborted transaction on a pooled connection.
    await expect(transaction(ctx(), (tx) => divideByZero.rows(tx))).rejects.toThrow(/division by zero/);
    await transaction(ctx(), (tx) => record(tx, 'bkg_unit_after_failure'));
    expect(await stored('bkg_unit_after_failure')).toEqual({ events: 1, deliveries: 1 });
  });

  it('refuses orm() afterwards: a programming error, and nothing commits', async () => {
    const attempt = transaction(ctx(), async (tx) => {
      await record(tx, 'bkg_unit_orm_too_late');
      await tx.orm();
    });
    await expect(attempt).rejects.toThrow(UnitOfWorkError);
    await expect(attempt).rejects.toThrow(/orm\(\) was asked for after typed statements/);
    expect(await stored('bkg_unit_orm_too_late')).toEqual({ events: 0, deliveries: 0 });
  });
});

describe('a unit whose first use is orm()', () => {
  it("is Prisma's interactive transaction of the tenant's scope, and later statements run in it", async () => {
    const seen = await transaction(ctx(), async (tx) => {
      const db = await tx.orm();
      await db.channel.create({ data: { id: 'chn_unit_orm', tenantId: tenant.tenantId, type: 'web' } });
      // Uncommitted, so only the same transaction sees it.
      const [row] = await channelNamed.rows(tx, 'chn_unit_orm');
      await record(tx, 'bkg_unit_orm');
      // The scope of the tenant applies: another tenant's channel is not found.
      return { row, other: await db.channel.findUnique({ where: { id: 'chn_unit_other' } }) };
    });
    expect(seen).toEqual({ row: { id: 'chn_unit_orm' }, other: null });
    expect(await stored('bkg_unit_orm')).toEqual({ events: 1, deliveries: 1 });
  });

  it('rolls back the writes of both kinds when the work throws', async () => {
    await expect(
      transaction(ctx(), async (tx) => {
        const db = await tx.orm();
        await db.channel.create({
          data: { id: 'chn_unit_rolled_back', tenantId: tenant.tenantId, type: 'web' },
        });
        await record(tx, 'bkg_unit_orm_rolled_back');
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await forTenant(tenant.tenantId).channel.count({ where: { id: 'chn_unit_rolled_back' } })).toBe(0);
    expect(await stored('bkg_unit_orm_rolled_back')).toEqual({ events: 0, deliveries: 0 });
  });

  it('is one client for every orm() of the unit', async () => {
    await transaction(ctx(), async (tx) => {
      expect(await tx.orm()).toBe(await tx.orm());
    });
  });
});

describe('units', () => {
  it('begin nothing when nothing is used (no connection is taken)', async () => {
    const pool = pgPool();
    const idle = pool.idleCount;
    const total = pool.totalCount;
    expect(await transaction(ctx(), async () => 'done')).toBe('done');
    expect([pool.totalCount, pool.idleCount]).toEqual([total, idle]);
  });

  it('need a tenant UUID', () => {
    expect(() => transaction({ tenantId: 'not-a-tenant' }, async () => undefined)).toThrow(TenantScopeError);
  });

  it('cannot be used after they ended', async () => {
    let leaked: UnitOfWork | undefined;
    await transaction(ctx(), async (tx) => {
      leaked = tx;
      await record(tx, 'bkg_unit_leaked');
    });
    await expect(backend.rows(leaked as UnitOfWork)).rejects.toThrow(UnitOfWorkError);
    expect(() => (leaked as UnitOfWork).orm()).toThrow(UnitOfWorkError);
  });

  it('roll a savepoint back when its work throws, and go on', async () => {
    for (const kind of ['sql', 'orm'] as const) {
      const id = `bkg_unit_savepoint_${kind}`;
      await transaction(ctx(), async (tx) => {
        if (kind === 'orm') await tx.orm();
        await expect(
          tx.savepoint(async () => {
            await record(tx, `${id}_undone`);
            await divideByZero.rows(tx);
          }),
        ).rejects.toThrow(/division by zero/);
        await record(tx, id);
      });
      expect(await stored(`${id}_undone`)).toEqual({ events: 0, deliveries: 0 });
      expect(await stored(id)).toEqual({ events: 1, deliveries: 1 });
    }
  });

  it('across tenants: orm() is the unscoped client, and the scope says why', async () => {
    const owner = await transaction(crossTenant('a test reads two tenants'), async (tx) => {
      expect(tx.tenantId).toBeNull();
      const db = await tx.orm();
      return (await db.channel.findUnique({ where: { id: 'chn_unit_other' } }))?.tenantId;
    });
    expect(owner).toBe(other.tenantId);
  });
});

describe('joining', () => {
  it('an operation called inside an open unit runs in it: one transaction, committed or rolled back with it', async () => {
    const pids = await transaction(ctx(), async (tx) => {
      const outer = (await backend.rows(tx))[0].pid;
      const inner = await transaction({ ...ctx(), tx }, async (joined) => {
        expect(joined).toBe(tx);
        await record(joined, 'bkg_unit_joined');
        return (await backend.rows(joined))[0].pid;
      });
      return [outer, inner];
    });
    expect(pids[0]).toBe(pids[1]);
    expect(await stored('bkg_unit_joined')).toEqual({ events: 1, deliveries: 1 });

    await expect(
      transaction(ctx(), async (tx) => {
        await transaction({ ...ctx(), tx }, (joined) => record(joined, 'bkg_unit_joined_rolled_back'));
        throw new Error('the caller fails after the joined work');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await stored('bkg_unit_joined_rolled_back')).toEqual({ events: 0, deliveries: 0 });
  });

  it('an audited operation: its context is in the unit (ctx.db is its transaction), its entry rolls back with it', async () => {
    const user = operationContext(tenant.tenantId, { type: 'user', id: tenant.adminUserId });
    const entries = () =>
      forTenant(tenant.tenantId).auditLog.count({ where: { targetId: 'chn_unit_audited' } });
    const createChannel = audited(
      async (opCtx, fail: boolean) => {
        expect(opCtx.tx).toBeDefined();
        await opCtx.db.channel.create({
          data: { id: 'chn_unit_audited', tenantId: tenant.tenantId, type: 'web' },
        });
        // The operation's own transaction joins the audited one.
        await transaction(opCtx, (tx) => {
          expect(tx).toBe(opCtx.tx);
          return record(tx, 'bkg_unit_audited');
        });
        if (fail) throw new Error('the operation fails');
        return 'chn_unit_audited';
      },
      (_input, id) => ({ action: 'channel.created', target: { type: 'channel', id } }),
    );
    await expect(createChannel(user, true)).rejects.toThrow('the operation fails');
    expect([await entries(), (await stored('bkg_unit_audited')).events]).toEqual([0, 0]);
    await createChannel(user, false);
    expect([await entries(), (await stored('bkg_unit_audited')).events]).toEqual([1, 1]);
  });

  it("refuses to join another tenant's unit", async () => {
    await transaction(ctx(), async (tx) => {
      const foreign = { ...operationContext(other.tenantId, SYSTEM_ACTOR), tx };
      expect(() => transaction(foreign, async () => undefined)).toThrow(TenantScopeError);
      // inUnit gives the operation the unit's Prisma client as its db.
      const inner = await inUnit(ctx(), tx);
      expect(inner.db).toBe(await tx.orm());
    });
  });
});
