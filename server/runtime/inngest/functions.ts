// Every Inngest function of the service, mounted by app/api/inngest/route.ts (DELIVERY_ENGINE=inngest;
// on serverless hosts this is where all background work runs):
// - `deliver-webhook`: one run per delivery round. One step per attempt (it signs afresh and sends),
//   a durable sleep of the next WEBHOOK_RETRY_WAITS entry between attempts, at most 1 + retries
//   attempts a round. An attempt the endpoint's throttle turns away sleeps until the free slot and
//   runs again. Step ids are stable (`attempt-N`, `wait-N`) so a replay resumes where it stopped.
// - `fire-timer`: one run per timer plan: `step.sleepUntil` the due time, then one step that loads
//   the timer by id and generation and fires it. A moved plan (generation + 1) is a new run; the
//   older run wakes to a generation that no longer exists and does nothing, as does a run whose
//   timer was deleted.
// - `relay-sweep`: every minute, the relay pass (../relay.ts) that catches what never left.
// - the periodic jobs (../jobs.ts), one cron function each.
// Concurrency is keyed per tenant on both kinds of work (and per endpoint on deliveries): each key
// value is a queue of its own at Inngest, so one tenant's backlog never holds every run, and other
// tenants' runs start beside it. Sleeping runs hold no concurrency slot.
import { DEFAULT_IN_FLIGHT_CAPS, DEFAULT_TIMERS_IN_FLIGHT, settings } from '@/server/config/settings';
import { maxAttempts, runAttempt, waitAfter } from '@/server/webhooks/attempt/run-attempt';
import { PERIODIC_JOBS } from '../jobs';
import { relayPass } from '../relay';
import { fireTimer, loadTimer } from '../timers/fire';
import {
  DELIVERY_REQUESTED,
  type DeliveryRequested,
  inngest,
  TIMER_PLANNED,
  type TimerPlanned,
} from './client';

/**
 * The caps, read when the functions are registered. Invalid settings are reported by /api/health
 * (and stop a long-running server); the functions still register, with the defaults.
 */
function caps(): { perTenant: number; perEndpoint: number; timersPerTenant: number } {
  try {
    const config = settings();
    return {
      perTenant: config.WEBHOOK_MAX_IN_FLIGHT_PER_TENANT,
      perEndpoint: config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
      timersPerTenant: config.TIMER_MAX_IN_FLIGHT_PER_TENANT,
    };
  } catch {
    return { ...DEFAULT_IN_FLIGHT_CAPS, timersPerTenant: DEFAULT_TIMERS_IN_FLIGHT };
  }
}
const limits = caps();

export const deliverWebhook = inngest.createFunction(
  {
    id: 'deliver-webhook',
    triggers: [{ event: DELIVERY_REQUESTED }],
    concurrency: [
      { limit: limits.perEndpoint, key: 'event.data.endpointId' },
      { limit: limits.perTenant, key: 'event.data.tenantId' },
    ],
    // Retries of a step that threw (database unavailable), not of failed HTTP attempts: those are the schedule below.
    retries: 5,
  },
  async ({ event, step }) => {
    const { tenantId, deliveryId, attemptBase = 0 } = (event as unknown as DeliveryRequested).data;
    const last = attemptBase + maxAttempts();
    for (let attempt = attemptBase + 1; attempt <= last; attempt++) {
      let outcome = await step.run(`attempt-${attempt}`, () => runAttempt({ tenantId, deliveryId, attempt }));
      // The endpoint's throttle had no free slot: sleep until it has one and try the same attempt again.
      for (let retry = 1; outcome.kind === 'throttled'; retry++) {
        await step.sleepUntil(`throttle-${attempt}-${retry}`, new Date(outcome.until));
        outcome = await step.run(`attempt-${attempt}-${retry}`, () =>
          runAttempt({ tenantId, deliveryId, attempt }),
        );
      }
      // A replayed step whose attempt was already recorded continues the schedule as if it had just run.
      const wait =
        outcome.kind === 'retry'
          ? outcome.waitMs
          : outcome.kind === 'skipped' && outcome.reason === 'duplicate' && attempt < last
            ? waitAfter(attempt - attemptBase)
            : undefined;
      if (wait === undefined) return outcome;
      await step.sleep(`wait-${attempt}`, wait);
    }
    return { kind: 'failed', attempt: last };
  },
);

export const fireTimerFunction = inngest.createFunction(
  {
    id: 'fire-timer',
    triggers: [{ event: TIMER_PLANNED }],
    concurrency: [{ limit: limits.timersPerTenant, key: 'event.data.tenantId' }],
    retries: 5,
  },
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

export const relaySweepFunction = inngest.createFunction(
  { id: 'relay-sweep', triggers: [{ cron: '* * * * *' }], concurrency: { limit: 1 } },
  async ({ step }) => step.run('relay', async () => ({ relayed: await relayPass() })),
);

/** The periodic jobs as Inngest cron functions: one step each, one run at a time per job. */
export const periodicJobFunctions = PERIODIC_JOBS.map((job) =>
  inngest.createFunction(
    { id: job.name, triggers: [{ cron: job.cron }], concurrency: { limit: 1 } },
    async ({ step }) => step.run(job.name, () => job.run()),
  ),
);

export const inngestFunctions = [
  deliverWebhook,
  fireTimerFunction,
  relaySweepFunction,
  ...periodicJobFunctions,
];
