import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directDatabaseUrl } from '@/server/db/client';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { planTimers, TIMER_CHANNEL } from './plan';

// A timer plan wakes the timer engine only when a timer was created or re-armed: every other plan
// (unchanged, or only deleting) would make each engine claim and look ahead for nothing.
let tenant: TestTenant;
let listener: pg.Client;
let wakeUps = 0;

beforeAll(async () => {
  tenant = await createTestTenant('timer plans');
  listener = new pg.Client({ connectionString: directDatabaseUrl() });
  await listener.connect();
  listener.on('notification', () => wakeUps++);
  await listener.query(`listen ${TIMER_CHANNEL}`);
});
afterAll(() => listener.end());

/** NOTIFYs on the timer channel within 300 ms after `run` (PostgreSQL sends them on commit). */
async function wakeUpsBy(run: () => Promise<unknown>): Promise<number> {
  const before = wakeUps;
  await run();
  await new Promise((resolve) => setTimeout(resolve, 300));
  return wakeUps - before;
}

describe('planTimers', () => {
  const db = () => forTenant(tenant.tenantId);
  const plan = (dueAt: Date | null) => () =>
    transaction(tenant, (tx) =>
      planTimers(tx, {
        subjectId: 'bkg_plan_subject',
        kinds: ['booking.hold'],
        plans: dueAt ? [{ kind: 'booking.hold', dueAt }] : [],
      }),
    );
  const stored = () => db().timer.findMany({ where: { subjectId: 'bkg_plan_subject' } });

  it('wakes the engine when a timer is created or moved, and not when nothing changed or it is deleted', async () => {
    const first = new Date(Date.now() + 3_600_000);
    expect(await wakeUpsBy(plan(first))).toBe(1);
    const [created] = await stored();
    expect(created).toMatchObject({ kind: 'booking.hold', dueAt: first });
    expect(await wakeUpsBy(plan(first))).toBe(0); // the same plan again
    expect(await stored()).toMatchObject([{ generation: created.generation }]);
    expect(await wakeUpsBy(plan(new Date(first.getTime() + 60_000)))).toBe(1);
    expect(await stored()).toMatchObject([{ generation: created.generation + 1 }]);
    expect(await wakeUpsBy(plan(null))).toBe(0);
    expect(await stored()).toEqual([]);
  });

  it('runs no statement for a subject created in the transaction with nothing to plan', async () => {
    await transaction(tenant, async (tx) => {
      await planTimers(tx, { subjectId: 'bkg_new', kinds: ['booking.hold'], plans: [], newSubject: true });
      // A statement would have begun the unit as a pg transaction, and Prisma's could not begin now.
      await tx.orm();
    });
  });

  it('a new booking wakes the engine only when it has a hold to expire', async () => {
    const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
    const booking = {
      customer: { name: 'Timer Plan' },
      start_at: '2031-01-01T09:00:00.000Z',
      end_at: '2031-01-01T09:30:00.000Z',
    };
    expect(await wakeUpsBy(() => createBooking(ctx, booking))).toBe(0);
    const held = { ...booking, hold_expires_at: new Date(Date.now() + 3_600_000).toISOString() };
    expect(await wakeUpsBy(() => createBooking(ctx, held))).toBe(1);
  });
});
