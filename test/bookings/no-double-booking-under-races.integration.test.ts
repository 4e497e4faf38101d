// No double booking under races: many parallel requests for one slot over real HTTP, and PostgreSQL's
// exclusion constraint is what stops them. The last test drops the constraint in this file's own
// database (each integration file gets a clone of its own) and shows the same race double-booking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { pgPool } from '@/server/db/pool';
import { forTenant } from '@/server/db/tenant-scope';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { CreateBookingInput } from '@/server/domain/bookings/schemas';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { dayFromNow, givenResource, givenService, serviceBooking, utc } from '../support/booking-fixtures';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { TEST_ENV } from '../support/env';
import { apiSuite } from '../support/harness';

// The races send more requests in a second than the per-credential API limit allows; that limit is
// not what these tests are about.
beforeAll(() => {
  process.env.API_RATE_LIMIT_PER_SECOND = '0';
  resetSettingsCache();
});
afterAll(() => {
  process.env.API_RATE_LIMIT_PER_SECOND = TEST_ENV.API_RATE_LIMIT_PER_SECOND;
  resetSettingsCache();
});
const { tenant: a } = apiSuite({ agent: true });
const PARALLEL = 25;

describe('atomic in the database: of many concurrent requests for one slot, exactly one wins', () => {
  it(`${PARALLEL} parallel POST /bookings for one resource and time: one 201, the rest 409 slot_unavailable, one row`, async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const day = dayFromNow(5);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        a.agent('POST', '/bookings', {
          body: serviceBooking(s.id, utc(day, '10:00'), { customer: { name: `C${i}` } }),
        }),
      ),
    );
    const statuses = answers.map((x) => x.status).sort();
    expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    for (const lost of answers.filter((x) => x.status !== 201))
      expectProblemCode(lost, 409, 'slot_unavailable');
    const rows = await forTenant(a.tenantId).booking.findMany({ where: { resourceId: r.id } });
    expect(rows).toHaveLength(1);
    expect(await eventsOf(a.tenantId, { type: 'booking.created' })).toHaveLength(1);
  });

  it('overlapping (not equal) times race too: 10:00, 10:15, 10:30 and 10:45 at once, one wins', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const day = dayFromNow(6);
    const answers = await Promise.all(
      ['10:00', '10:15', '10:30', '10:45', '10:00', '10:30'].map((t) =>
        a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, t)) }),
      ),
    );
    expect(answers.filter((x) => x.status === 201)).toHaveLength(1);
  });

  it('with two free resources, exactly two win, on different resources (the loser of one race takes the next)', async () => {
    const r1 = await givenResource(a.admin);
    const r2 = await givenResource(a.admin);
    const s = await givenService(a.admin, [r1.id, r2.id]);
    const day = dayFromNow(7);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, '11:00')) }),
      ),
    );
    const won = answers.filter((x) => x.status === 201);
    expect(won).toHaveLength(2);
    expect(new Set(won.map((x) => x.body.resource_id))).toEqual(new Set([r1.id, r2.id]));
  });

  it('a crowd racing for overlapping times on two resources: every answer is 201 or 409, never an overlap', async () => {
    const r1 = await givenResource(a.admin);
    const r2 = await givenResource(a.admin);
    const s = await givenService(a.admin, [r1.id, r2.id]);
    const day = dayFromNow(10);
    const times = ['10:00', '10:15', '10:30', '10:45', '11:00', '11:15', '11:30', '11:45'];
    const answers = await Promise.all(
      Array.from({ length: 48 }, (_, i) =>
        a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, times[i % times.length])) }),
      ),
    );
    expect(answers.filter((x) => x.status !== 201 && x.status !== 409).map((x) => x.text)).toEqual([]);
    const { rows } = await pgPool().query(
      `select count(*)::int as n from bookings x join bookings y on x.resource_id = y.resource_id and x.id < y.id
       where x.service_id = $1 and y.service_id = $1
         and tstzrange(x.blocked_from, x.blocked_until, '[)') && tstzrange(y.blocked_from, y.blocked_until, '[)')`,
      [s.id],
    );
    expect(rows[0].n).toBe(0);
    expect(answers.filter((x) => x.status === 201).length).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('racing reschedules onto one slot: one moves, the others stay untouched', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const day = dayFromNow(8);
    const mine = await Promise.all(
      ['09:00', '11:00', '13:00', '15:00'].map((t) =>
        a.agent('POST', '/bookings', { body: serviceBooking(s.id, utc(day, t)) }),
      ),
    );
    const answers = await Promise.all(
      mine.map((b) =>
        a.agent('POST', `/bookings/${b.body.id}/reschedule`, { body: { start_at: utc(day, '10:00') } }),
      ),
    );
    expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
    const rows = await forTenant(a.tenantId).booking.findMany({
      where: { resourceId: r.id },
      orderBy: { startAt: 'asc' },
    });
    const starts = rows.map((b) => b.startAt.toISOString().slice(11, 16));
    expect(starts.filter((t) => t === '10:00')).toHaveLength(1);
    expect(starts).toHaveLength(4);
  });

  it('without the exclusion constraint the same race double-books (the constraint is what prevents it)', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const day = dayFromNow(9);
    await pgPool().query('alter table bookings drop constraint bookings_no_overlap');
    const ctx = operationContext(a.tenantId, SYSTEM_ACTOR);
    const input = CreateBookingInput.parse(serviceBooking(s.id, utc(day, '10:00')));
    // Domain calls straight on the pool: every request reads "free" before any writes.
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => createBooking(ctx, input)));
    const rows = await forTenant(a.tenantId).booking.findMany({ where: { resourceId: r.id } });
    expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeGreaterThan(1);
    expect(rows.length).toBeGreaterThan(1);
  });
});
