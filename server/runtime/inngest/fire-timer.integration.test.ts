import { InngestTestEngine } from '@inngest/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetSettingsCache, settings } from '@/server/config/settings';
import { forTenant } from '@/server/db/tenant-scope';
import { transaction } from '@/server/db/unit-of-work';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { CreateBookingInput } from '@/server/domain/bookings/schemas';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { createResource } from '@/server/domain/resources/manage-resources';
import { CreateResourceInput } from '@/server/domain/resources/schemas';
import { createService } from '@/server/domain/services/manage-services';
import { CreateServiceInput } from '@/server/domain/services/schemas';
import { inngest } from '@/server/runtime/inngest/client';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { relayPass, type Send } from '../relay';
import { timerRelay } from '../timers/relay';
import { TIMER_PLANNED, type TimerPlanned } from './client';
import { fireTimerFunction, relaySweepFunction } from './functions';

/** One relay pass over the timers only, with the given sender. */
const relayTimers = (send: (events: TimerPlanned[]) => Promise<unknown>) =>
  relayPass(send as Send, [timerRelay]);

// The timers on Inngest: a run per plan that sleeps until the due time (step.sleepUntil, mocked here
// by id as the dev server cannot run), then fires in one step against the real database; a moved or
// cancelled plan leaves the older run nothing to do (generation check); the relay and its cron sweep
// hand plans to Inngest once per generation.
process.env.DELIVERY_ENGINE = 'inngest';
resetSettingsCache();
afterAll(() => {
  delete process.env.DELIVERY_ENGINE;
  resetSettingsCache();
});

let tenant: TestTenant;
let serviceId: string;
beforeAll(async () => {
  tenant = await createTestTenant('inngest timers');
  const ctx = operationContext(tenant.tenantId, SYSTEM_ACTOR);
  const days = Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
  );
  const resource = await createResource(
    ctx,
    CreateResourceInput.parse({ name: 'R', time_zone: 'UTC', weekly_hours: days }),
  );
  const service = await createService(
    ctx,
    CreateServiceInput.parse({
      name: 'S',
      duration_minutes: 30,
      resource_ids: [resource.id],
      booking_window_days: 730,
    }),
  );
  serviceId = service.id;
});

const ctx = () => operationContext(tenant.tenantId, SYSTEM_ACTOR);
let slot = 0;
/** A held booking (hold in 1 h) at its own time; answers it with its hold timer. */
async function heldBooking() {
  const start = new Date(Date.now() + (2 + slot++) * 86_400_000);
  start.setUTCHours(10, 0, 0, 0);
  const booking = await createBooking(
    ctx(),
    CreateBookingInput.parse({
      service_id: serviceId,
      start_at: start.toISOString(),
      customer: { name: 'Ada' },
      hold_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    }),
  );
  const timer = await forTenant(tenant.tenantId).timer.findFirstOrThrow({ where: { subjectId: booking.id } });
  return { booking, timer };
}

function planned(timer: { id: string; generation: number; dueAt: Date }): TimerPlanned {
  return {
    name: TIMER_PLANNED,
    id: `${timer.id}~g${timer.generation}`,
    data: {
      timerId: timer.id,
      tenantId: tenant.tenantId,
      generation: timer.generation,
      dueAt: timer.dueAt.toISOString(),
    },
  };
}

describe('fire-timer', () => {
  it('sleeps until the due time with step.sleepUntil, then fires once: the hold expires', async () => {
    const { booking, timer } = await heldBooking();
    // Make it due (as if the hour had passed), then run the function as Inngest would.
    await forTenant(tenant.tenantId).booking.update({
      where: { id: booking.id },
      data: { holdExpiresAt: new Date(Date.now() - 1000) },
    });
    const engine = new InngestTestEngine({
      function: fireTimerFunction,
      events: [planned(timer)],
      steps: [{ id: 'until-due', handler: () => undefined }],
    });
    const { result, ctx: run } = await engine.execute();
    expect(run.step.sleepUntil).toHaveBeenCalledWith('until-due', timer.dueAt);
    expect(result).toBe('expired');
    expect(
      (await forTenant(tenant.tenantId).booking.findUniqueOrThrow({ where: { id: booking.id } })).status,
    ).toBe('expired');
    // A replay of the same run (or a duplicate event) finds the timer fired: nothing happens twice.
    const again = await new InngestTestEngine({
      function: fireTimerFunction,
      events: [planned(timer)],
      steps: [{ id: 'until-due', handler: () => undefined }],
    }).execute();
    expect(again.result).toBe('stale');
  });

  it('a run for a plan that was moved or cancelled since does nothing when it wakes', async () => {
    const { booking, timer } = await heldBooking();
    // Cancelling deletes the hold timer: the sleeping run wakes to nothing.
    await transaction(tenant, async (tx) => {
      const db = await tx.orm();
      await db.booking.update({ where: { id: booking.id }, data: { status: 'cancelled' } });
      await db.timer.delete({ where: { id: timer.id } });
    });
    const { result } = await new InngestTestEngine({
      function: fireTimerFunction,
      events: [planned(timer)],
      steps: [{ id: 'until-due', handler: () => undefined }],
    }).execute();
    expect(result).toBe('stale');
  });

  it('a plan moved to a new generation: the older run is stale, the relay sends the new plan once', async () => {
    const { timer } = await heldBooking();
    const before = await forTenant(tenant.tenantId).timer.findUniqueOrThrow({ where: { id: timer.id } });
    // A re-plan (planTimers with another due time) bumps the generation and clears the hand-over.
    await forTenant(tenant.tenantId).timer.update({
      where: { id: timer.id },
      data: {
        generation: { increment: 1 },
        dueAt: new Date(Date.now() + 7_200_000),
        dispatchedGeneration: null,
      },
    });
    const { result } = await new InngestTestEngine({
      function: fireTimerFunction,
      events: [planned(before)],
      steps: [{ id: 'until-due', handler: () => undefined }],
    }).execute();
    expect(result).toBe('stale');
    const sent: TimerPlanned[] = [];
    await relayTimers(async (events) => {
      sent.push(...events);
    });
    expect(sent.map((e) => e.id)).toContain(`${timer.id}~g${before.generation + 1}`);
    const again: TimerPlanned[] = [];
    await relayTimers(async (events) => {
      again.push(...events);
    });
    expect(again.map((e) => e.data.timerId)).not.toContain(timer.id);
  });
});

describe('fair timers on Inngest', () => {
  it("keys fire-timer runs by tenant, so one tenant's backlog of due timers never holds every run", () => {
    expect(fireTimerFunction.opts.concurrency).toEqual([
      { limit: settings().TIMER_MAX_IN_FLIGHT_PER_TENANT, key: 'event.data.tenantId' },
    ]);
  });

  it('relays the tenant with every plan', async () => {
    const { timer } = await heldBooking();
    const sent: TimerPlanned[] = [];
    await relayTimers(async (events) => {
      sent.push(...events);
    });
    expect(sent.find((e) => e.data.timerId === timer.id)?.data.tenantId).toBe(tenant.tenantId);
  });
});

describe('relay-sweep', () => {
  it('sends every plan whose Inngest event never left, with <timer id>~g<generation> as its id', async () => {
    const { timer } = await heldBooking();
    const send = vi.spyOn(inngest, 'send').mockResolvedValue({ ids: [] } as never);
    try {
      const { result } = await new InngestTestEngine({ function: relaySweepFunction }).execute();
      expect((result as { relayed: number }).relayed).toBeGreaterThanOrEqual(1);
      const events = send.mock.calls.flatMap((call) => call[0] as unknown as TimerPlanned[]);
      expect(events).toContainEqual(planned(timer));
    } finally {
      send.mockRestore();
    }
    const row = await forTenant(tenant.tenantId).timer.findUniqueOrThrow({ where: { id: timer.id } });
    expect(row.dispatchedGeneration).toBe(row.generation);
  });
});
