import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSettingsCache } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import {
  dayFromNow,
  everyDay,
  givenResource,
  givenService,
  serviceBooking,
  utc,
} from '../support/booking-fixtures';
import { expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';

// Every hold (a pending booking with hold_expires_at) is a timer the runtime must fire: a tenant may
// have at most MAX_OPEN_HOLDS_PER_TENANT open at once. One more answers 409 hold_limit_reached and
// stores nothing, also when the requests race; confirmed, cancelled and expired holds stop counting,
// bookings without a hold never count, and the cap is each tenant's own.
const HOLDS = 3;
beforeAll(() => {
  process.env.MAX_OPEN_HOLDS_PER_TENANT = String(HOLDS);
  resetSettingsCache();
});
afterAll(() => {
  delete process.env.MAX_OPEN_HOLDS_PER_TENANT;
  resetSettingsCache();
});
const { newTenant } = apiSuite({ tenant: false });

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const freeForm = (i: number, hold = true) => ({
  customer: { name: `Hold ${i}` },
  start_at: utc(dayFromNow(3), '10:00'),
  end_at: utc(dayFromNow(3), '11:00'),
  ...(hold ? { hold_expires_at: inAnHour() } : {}),
});
const openHolds = (tenantId: string) =>
  forTenant(tenantId).booking.count({ where: { status: 'pending', holdExpiresAt: { not: null } } });

describe('security finding 5: free-form holds are unlimited (a per-tenant cap on open holds)', () => {
  it('one free-form hold more than MAX_OPEN_HOLDS_PER_TENANT is 409 hold_limit_reached, nothing stored', async () => {
    const t = await newTenant('hold cap');
    const held = [];
    for (let i = 0; i < HOLDS; i++) {
      const res = await t.admin('POST', '/bookings', { body: freeForm(i) });
      expect(res.status, res.text).toBe(201);
      held.push(res.body.id as string);
    }
    const before = await forTenant(t.tenantId).booking.count();
    expectProblemCode(await t.admin('POST', '/bookings', { body: freeForm(9) }), 409, 'hold_limit_reached');
    expect(await forTenant(t.tenantId).booking.count()).toBe(before);
    // Bookings without a hold never count and are never refused.
    expect((await t.admin('POST', '/bookings', { body: freeForm(10, false) })).status).toBe(201);
    // A hold that is confirmed or cancelled stops counting.
    expect((await t.admin('POST', `/bookings/${held[0]}/confirm`)).status).toBe(200);
    expect((await t.admin('POST', '/bookings', { body: freeForm(11) })).status).toBe(201);
    expectProblemCode(await t.admin('POST', '/bookings', { body: freeForm(12) }), 409, 'hold_limit_reached');
    expect((await t.admin('POST', `/bookings/${held[1]}/cancel`, { body: {} })).status).toBe(200);
    expect((await t.admin('POST', '/bookings', { body: freeForm(13) })).status).toBe(201);
    // Another tenant has its own allowance.
    const other = await newTenant('hold cap, other');
    expect((await other.admin('POST', '/bookings', { body: freeForm(0) })).status).toBe(201);
  });

  it('holds when creations race: exactly the cap is held', async () => {
    const t = await newTenant('hold race');
    const answers = await Promise.all(
      Array.from({ length: HOLDS + 5 }, (_, i) => t.admin('POST', '/bookings', { body: freeForm(i) })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(HOLDS);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expectProblemCode(refused, 409, 'hold_limit_reached');
    }
    expect(await openHolds(t.tenantId)).toBe(HOLDS);
  });

  it('a service booking with a hold counts against the same cap', async () => {
    const t = await newTenant('hold cap, services');
    const r = await givenResource(t.admin, { weekly_hours: everyDay([{ start: '00:00', end: '24:00' }]) });
    const s = await givenService(t.admin, [r.id]);
    for (let i = 0; i < HOLDS; i++) {
      const res = await t.admin('POST', '/bookings', { body: freeForm(i) });
      expect(res.status).toBe(201);
    }
    const refused = await t.admin('POST', '/bookings', {
      body: serviceBooking(s.id, utc(dayFromNow(4), '09:00'), { hold_expires_at: inAnHour() }),
    });
    expectProblemCode(refused, 409, 'hold_limit_reached');
    // The same slot without a hold is free and booked.
    const unheld = await t.admin('POST', '/bookings', {
      body: serviceBooking(s.id, utc(dayFromNow(4), '09:00')),
    });
    expect(unheld.status, unheld.text).toBe(201);
    expect(await openHolds(t.tenantId)).toBe(HOLDS);
  });
});
