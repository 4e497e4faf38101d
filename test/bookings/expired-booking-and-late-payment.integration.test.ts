// The booking states added for holds and no-shows: an expired hold is final except through
// confirmExpiredBooking (a late payment), which succeeds only while the slot is still free; the new
// events reach endpoints subscribed to booking.*.
import { describe, expect, it } from 'vitest';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { expireHeldBooking } from '@/server/domain/bookings/expire-hold';
import { confirmExpiredBooking } from '@/server/domain/bookings/transition';
import { AppError } from '@/server/lib/errors';
import type { TimerKind } from '@/server/timers/plan';
import { dayFromNow, givenResource, givenService, serviceBooking, utc } from '../support/booking-fixtures';
import { givenEndpoint } from '../support/builders';
import { eventsOf, expectProblemCode } from '../support/domain-fixtures';
import { apiSuite } from '../support/harness';

const { tenant: a } = apiSuite({ agent: true });

/** A held booking whose hold has run out, expired through its timer's handler. */
async function expiredBooking(serviceId: string, startAt: string) {
  const res = await a.agent('POST', '/bookings', {
    body: serviceBooking(serviceId, startAt, {
      hold_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    }),
  });
  expect(res.status, res.text).toBe(201);
  const db = forTenant(a.tenantId);
  await db.booking.update({
    where: { id: res.body.id },
    data: { holdExpiresAt: new Date(Date.now() - 1000) },
  });
  const timer = await db.timer.findFirstOrThrow({ where: { subjectId: res.body.id, kind: 'booking.hold' } });
  expect(await expireHeldBooking({ ...timer, kind: timer.kind as TimerKind })).toBe('expired');
  return res.body as { id: string };
}

describe('expired is final, except for a late payment while the slot is still free', () => {
  it('no action moves an expired booking', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const booking = await expiredBooking(s.id, utc(dayFromNow(3), '10:00'));
    for (const action of ['confirm', 'cancel', 'complete', 'no-show']) {
      expectProblemCode(
        await a.agent('POST', `/bookings/${booking.id}/${action}`, action === 'cancel' ? { body: {} } : {}),
        409,
        'invalid_transition',
      );
    }
    expectProblemCode(
      await a.agent('POST', `/bookings/${booking.id}/reschedule`, {
        body: { start_at: utc(dayFromNow(3), '12:00') },
      }),
      409,
      'invalid_transition',
    );
  });

  it('confirmExpiredBooking confirms it (booking.confirmed) while its slot is free', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const start = utc(dayFromNow(4), '10:00');
    const booking = await expiredBooking(s.id, start);
    const confirmed = await transaction({ tenantId: a.tenantId }, (tx) =>
      confirmExpiredBooking(tx, { id: booking.id }),
    );
    expect(confirmed.status).toBe('confirmed');
    expect(await eventsOf(a.tenantId, { type: 'booking.confirmed', objectId: booking.id })).toHaveLength(1);
    // It blocks its slot again.
    expectProblemCode(
      await a.agent('POST', '/bookings', { body: serviceBooking(s.id, start) }),
      409,
      'slot_unavailable',
    );
  });

  it('refuses with slot_unavailable, leaving it expired, when the slot was taken since', async () => {
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const start = utc(dayFromNow(5), '10:00');
    const booking = await expiredBooking(s.id, start);
    expect((await a.agent('POST', '/bookings', { body: serviceBooking(s.id, start) })).status).toBe(201);
    const outcome = await transaction({ tenantId: a.tenantId }, (tx) =>
      confirmExpiredBooking(tx, { id: booking.id }),
    ).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).code).toBe('slot_unavailable');
    expect((await a.agent('GET', `/bookings/${booking.id}`)).body.status).toBe('expired');
  });
});

describe('new events: booking.expired, booking.no_show, booking.reminder.sent', () => {
  it('are in the catalog with their schema and example, and booking.* subscriptions get them', async () => {
    const types = await a.agent('GET', '/event-types');
    const listed = new Map(types.body.data.map((t: { type: string }) => [t.type, t]));
    for (const type of ['booking.expired', 'booking.no_show', 'booking.reminder.sent']) {
      expect(listed.get(type)).toMatchObject({
        type,
        example: { type, data: { object: { id: expect.any(String) } } },
      });
    }
    const endpoint = await givenEndpoint(a.admin, 'http://127.0.0.1:9/bookings', ['booking.*']);
    const r = await givenResource(a.admin);
    const s = await givenService(a.admin, [r.id]);
    const booking = await expiredBooking(s.id, utc(dayFromNow(6), '10:00'));
    const [event] = await eventsOf(a.tenantId, { type: 'booking.expired', objectId: booking.id });
    const deliveries = await forTenant(a.tenantId).delivery.findMany({ where: { eventId: event.id } });
    expect(deliveries.map((d) => d.endpointId)).toEqual([endpoint.id]);
  });
});
