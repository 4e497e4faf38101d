// The delivery workflow on Inngest: one step per attempt (it signs afresh and sends), a durable
// sleep of the next WEBHOOK_RETRY_WAITS entry between attempts, at most 1 + retries attempts. Step
// ids are stable (`attempt-N`, `wait-N`) so a replay resumes where it stopped. Concurrency is keyed
// per endpoint so one slow receiver cannot hold every slot.
import { maxAttempts, runAttempt, waitAfter } from '@/server/delivery/attempt';
import { DELIVERY_REQUESTED, type DeliveryRequested, inngest } from './client';
import { findUndispatched, markDispatched } from './relay';

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

/** The periodic sweep: relays any event whose fan-out was never sent (a crash between commit and send). */
export const sweepOutbox = inngest.createFunction(
  { id: 'sweep-outbox', triggers: [{ cron: '* * * * *' }], concurrency: { limit: 1 } },
  async ({ step }) => {
    const batch = await step.run('find-undispatched', () => findUndispatched());
    if (batch.requests.length > 0) await step.sendEvent('send-delivery-requests', batch.requests);
    await step.run('mark-dispatched', () => markDispatched(batch.eventIds));
    return { events: batch.eventIds.length, deliveries: batch.requests.length };
  },
);

export const inngestFunctions = [deliverWebhook, sweepOutbox];
