// The delivery workflow on Inngest: one step per attempt (it signs afresh and sends), a durable
// sleep of the next WEBHOOK_RETRY_WAITS entry between attempts, at most 1 + retries attempts per
// round (a recovered delivery starts a new round, numbered after its earlier attempts). An attempt
// the endpoint's throttle turns away sleeps until the free slot and runs again (../../attempt/throttle.ts). Step
// ids are stable (`attempt-N`, `wait-N`) so a replay resumes where it stopped. Concurrency is keyed
// per endpoint and per tenant (the worker's caps, WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT and _PER_TENANT):
// each key value is a queue of its own at Inngest, so neither a slow receiver nor one tenant's backlog
// can hold every run, and other tenants' runs start beside them.

import { DEFAULT_IN_FLIGHT_CAPS, settings } from '@/server/config/settings';
import { jobsFor } from '@/server/jobs/registry';
import { maxAttempts, runAttempt, waitAfter } from '@/server/webhooks/attempt/run-attempt';
import { DELIVERY_REQUESTED, type DeliveryRequested, inngest } from './client';

/**
 * The caps, read when the functions are registered. Invalid settings are reported by /api/health
 * (and stop a long-running server); the function still registers, with the defaults.
 */
function inFlightCaps(): { perTenant: number; perEndpoint: number } {
  try {
    const config = settings();
    return {
      perTenant: config.WEBHOOK_MAX_IN_FLIGHT_PER_TENANT,
      perEndpoint: config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    };
  } catch {
    return { ...DEFAULT_IN_FLIGHT_CAPS };
  }
}
const caps = inFlightCaps();

export const deliverWebhook = inngest.createFunction(
  {
    id: 'deliver-webhook',
    triggers: [{ event: DELIVERY_REQUESTED }],
    concurrency: [
      { limit: caps.perEndpoint, key: 'event.data.endpointId' },
      { limit: caps.perTenant, key: 'event.data.tenantId' },
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

/**
 * The periodic jobs (server/jobs/registry.ts) as Inngest cron functions: on serverless hosts this is
 * where they run. One step each, one run at a time per job.
 */
export const periodicJobFunctions = jobsFor('inngest').map((job) =>
  inngest.createFunction(
    { id: job.name, triggers: [{ cron: job.cron }], concurrency: { limit: 1 } },
    async ({ step }) => step.run(job.name, () => job.run()),
  ),
);

export const inngestFunctions = [deliverWebhook, ...periodicJobFunctions];
