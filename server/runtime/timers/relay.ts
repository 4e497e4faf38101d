// The timers' source for the Inngest relay (../relay.ts): plans whose generation was not yet handed
// to Inngest become one `switchboard/timer.planned` event each, with `<timer id>~g<generation>` as
// the event id so Inngest drops duplicates, and are marked for that generation. The `fire-timer`
// function (../inngest/functions.ts) then sleeps until the due time and fires the timer.
import { maintenanceDb } from '@/server/db/maintenance';
import { TIMER_CHANNEL } from '@/server/timers/plan';
import { type RelaySource, TIMER_PLANNED, type TimerPlanned } from '../inngest/client';
import { markTimersRelayed } from './sql/mark-timers-relayed';
import { unrelayedTimers } from './sql/unrelayed-timers';

export const timerRelay: RelaySource<TimerPlanned> = {
  name: 'timers',
  channel: TIMER_CHANNEL,
  async read(limit) {
    const rows = await unrelayedTimers.rows(maintenanceDb(), limit);
    return {
      rows: rows.length,
      events: rows.map((r) => ({
        name: TIMER_PLANNED,
        id: `${r.id}~g${r.generation}`,
        data: { timerId: r.id, tenantId: r.tenantId, generation: r.generation, dueAt: r.dueAt.toISOString() },
      })),
      markSent: async () => {
        await markTimersRelayed.execute(
          maintenanceDb(),
          rows.map((r) => r.id),
          rows.map((r) => r.generation),
        );
      },
    };
  },
};
