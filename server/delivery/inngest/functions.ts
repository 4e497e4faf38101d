// The delivery workflow on Inngest: one step per attempt (it signs afresh and sends), a durable
// sleep of the next WEBHOOK_RETRY_WAITS entry between attempts, at most 1 + retries attempts. Step
// ids are stable (`attempt-N`, `wait-N`) so a replay resumes where it stopped. Concurrency is keyed
// per endpoint so one slow receiver cannot hold every slot.
import { maxAttempts, runAttempt, waitAfter } from '@/server/delivery/attempt';
import { jobsFor } from '@/server/jobs/registry';
import { DELIVERY_REQUESTED, type DeliveryRequested, inngest } from './client';

export const deliverWebhook = inngest.createFunction(
  {
    id: 'deliver-webhook',
    triggers: [{ event: DELIVERY_REQUESTED }],
    concurrency: { limit: 5, key: 'event.data.endpointId' },
    // Retries of a step that threw (database unavailable), not of failed HTTP attempts: those are the schedule below.
    retries: 5,
  },
  async ({ event, step }) => {
    const { tenantId, deliveryId } = (event as unknown as DeliveryRequested).data;
    const last = maxAttempts();
    for (let attempt = 1; attempt <= last; attempt++) {
      const outcome = await step.run(`attempt-${attempt}`, () =>
        runAttempt({ tenantId, deliveryId, attempt }),
      );
      // A replayed step whose attempt was already recorded continues the schedule as if it had just run.
      const wait =
        outcome.kind === 'retry'
          ? outcome.waitMs
          : outcome.kind === 'skipped' && outcome.reason === 'duplicate' && attempt < last
            ? waitAfter(attempt)
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
