// The Inngest engine of the timers: one run per timer plan (`fire-timer`) that sleeps with
// `step.sleepUntil` until the due time, then fires the timer in one step. A moved timer is a new plan
// (its generation + 1, a new run); the older run wakes, finds its generation gone and does nothing (the
// generation check of `loadTimer`), and a deleted timer (a cancelled booking) likewise. Plans reach
// Inngest through a relay: rows whose generation was not yet handed over are sent, with
// `<timer id>~g<generation>` as the event id so Inngest drops duplicates, then marked. The relay runs
// after each plan's commit (NOTIFY, in a long-running server) and from the `sweep-timers` cron
// function, so a plan whose event never left (a crash, Inngest unreachable) is sent within a minute.
import { db } from '@/server/db/client';
import { logger } from '@/server/log';
import { inngest } from '@/server/webhooks/engines/inngest/client';
import { fireTimer, loadTimer } from './fire';

export const TIMER_PLANNED = 'switchboard/timer.planned';

export interface TimerPlanned {
  name: typeof TIMER_PLANNED;
  id: string;
  data: { timerId: string; tenantId: string; generation: number; dueAt: string };
}

export const fireTimerFunction = inngest.createFunction(
  { id: 'fire-timer', triggers: [{ event: TIMER_PLANNED }], retries: 5 },
  async ({ event, step }) => {
    const { timerId, generation, dueAt } = (event as unknown as TimerPlanned).data;
    await step.sleepUntil('until-due', new Date(dueAt));
    return step.run('fire', async () => {
      const timer = await loadTimer(timerId, generation);
      if (!timer) return 'stale'; // fired, moved (a newer run has it) or deleted since
      return fireTimer(timer);
    });
  },
);

const PASS = 500;

/** Sends every plan not yet handed to Inngest; returns how many. Cross-tenant by design. */
export async function relayTimers(send: (events: TimerPlanned[]) => Promise<unknown>): Promise<number> {
  let sent = 0;
  for (;;) {
    const rows = await db().$queryRaw<{ id: string; tenant_id: string; generation: number; due_at: Date }[]>`
      select id, tenant_id, generation, due_at from timers
      where fired_at is null and (dispatched_generation is null or dispatched_generation <> generation)
      order by due_at limit ${PASS}`;
    if (rows.length === 0) break;
    await send(
      rows.map((r) => ({
        name: TIMER_PLANNED,
        id: `${r.id}~g${r.generation}`,
        data: {
          timerId: r.id,
          tenantId: r.tenant_id,
          generation: r.generation,
          dueAt: r.due_at.toISOString(),
        },
      })),
    );
    // Marked only for the generation sent: a plan moved meanwhile is sent again by the next pass.
    await db().$executeRaw`update timers t set dispatched_generation = s.generation
      from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.generation)}::int[]) as s(id, generation)
      where t.id = s.id and t.generation = s.generation`;
    sent += rows.length;
    if (rows.length < PASS) break;
  }
  if (sent > 0) logger().debug({ sent }, 'timer plans relayed to Inngest');
  return sent;
}

/** The relay's cron safety net (every minute): plans whose event never left. */
export const sweepTimersFunction = inngest.createFunction(
  { id: 'sweep-timers', triggers: [{ cron: '* * * * *' }], concurrency: { limit: 1 } },
  async ({ step }) => step.run('relay', () => relayTimers((events) => inngest.send(events))),
);

export const timerFunctions = [fireTimerFunction, sweepTimersFunction];
