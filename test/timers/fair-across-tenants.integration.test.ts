// One tenant's backlog of due timers never delays another's: 4,000 of tenant A's holds fall due a
// second before tenant B's one hold, and B's still expires, with its booking.expired, within 5 s of
// its time, while A's backlog is still draining, A never holding more timers in flight than its cap
// (server/runtime/timers/sql/claim-timers.sql). Before timers were claimed fairly the worker took the
// 20 earliest timers of all tenants: B's hold waited behind every one of A's.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '@/server/config/settings';
import { directDatabaseUrl } from '@/server/db/client';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { CreateBookingInput } from '@/server/domain/bookings/schemas';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { startTimerWorker, type TimerWorker } from '@/server/runtime/timers/worker';
import { eventually } from '../support/booking-fixtures';
import { eventsOf } from '../support/domain-fixtures';
import { createTestTenant, type TestTenant } from '../support/helpers';

const BACKLOG = 4_000;
const ON_TIME_MS = 5_000;

let admin: pg.Client;
let a: TestTenant;
let b: TestTenant;
let worker: TimerWorker | undefined;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: directDatabaseUrl() });
  await admin.connect();
  [a, b] = await Promise.all([createTestTenant('timers A'), createTestTenant('timers B')]);
});
afterAll(async () => {
  await worker?.stop();
  await admin.end();
});

/**
 * `count` pending free-form bookings of the tenant held until `until`, each with its hold timer:
 * the rows `createBooking` writes for a hold, in two statements (4,000 requests would take longer
 * than the test).
 */
async function parkHolds(tenantId: string, count: number, until: Date) {
  await admin.query(
    `insert into bookings (id, tenant_id, status, customer_name, start_at, end_at, hold_expires_at, updated_at)
     select 'bkg_fair_' || g, $1, 'pending', 'Customer ' || g, now() + interval '2 days',
       now() + interval '2 days 30 minutes', $2, now()
     from generate_series(1, $3::int) g`,
    [tenantId, until, count],
  );
  await admin.query(
    `insert into timers (id, tenant_id, kind, subject_id, key, due_at, updated_at)
     select 'tmr_fair_' || g, $1, 'booking.hold', 'bkg_fair_' || g, '', $2, now()
     from generate_series(1, $3::int) g`,
    [tenantId, until, count],
  );
}

describe("one tenant's due timers never delay another tenant's", () => {
  it(`B's hold expires within 5 s while ${BACKLOG} of A's, due a second earlier, drain`, {
    timeout: 120_000,
  }, async () => {
    const aDue = new Date(Date.now() + 3_000);
    const bDue = new Date(aDue.getTime() + 1_000);
    await parkHolds(a.tenantId, BACKLOG, aDue);
    const held = await createBooking(
      operationContext(b.tenantId, SYSTEM_ACTOR),
      CreateBookingInput.parse({
        customer: { name: 'B customer', phone: '+34600111222' },
        start_at: new Date(Date.now() + 86_400_000).toISOString(),
        end_at: new Date(Date.now() + 90_000_000).toISOString(),
        hold_expires_at: bDue.toISOString(),
      }),
    );
    worker = await startTimerWorker();

    // A's timers in flight (claimed, not fired), sampled while the backlog drains.
    let aInFlightMax = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await admin.query(
          `select count(*)::int as n from timers where tenant_id = $1 and fired_at is null and locked_until >= now()`,
          [a.tenantId],
        );
        aInFlightMax = Math.max(aInFlightMax, rows[0].n);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const [expired] = await eventually(async () => {
      const events = await eventsOf(b.tenantId, { type: 'booking.expired', objectId: held.id });
      expect(events).toHaveLength(1);
      return events;
    }, 30_000);
    const lateMs = Date.parse(expired.created_at) - bDue.getTime();
    const { rows } = await admin.query(
      `select count(*)::int as n from events where tenant_id = $1 and type = 'booking.expired' and created_at <= $2`,
      [a.tenantId, expired.created_at],
    );
    const aExpiredBefore = rows[0].n as number;
    sampling = false;
    await sampler;
    console.log(
      `timer fairness: B's hold expired ${lateMs} ms after its time, when ${aExpiredBefore} of A's ` +
        `${BACKLOG} had expired; A had at most ${aInFlightMax} timers in flight`,
    );
    expect(lateMs).toBeGreaterThanOrEqual(0);
    expect(lateMs).toBeLessThan(ON_TIME_MS);
    // B did not wait for A's backlog: most of it was still to come.
    expect(aExpiredBefore).toBeLessThan(BACKLOG / 2);
    expect(aInFlightMax).toBeGreaterThan(0);
    expect(aInFlightMax).toBeLessThanOrEqual(settings().TIMER_MAX_IN_FLIGHT_PER_TENANT);
    // …and A's backlog goes on draining beside it (the rest takes about a minute here).
    await eventually(async () => {
      const { rows: done } = await admin.query(
        `select count(*)::int as n from bookings where tenant_id = $1 and status = 'expired'`,
        [a.tenantId],
      );
      expect(done[0].n).toBeGreaterThan(aExpiredBefore + 100);
    }, 30_000);
  });
});
