import type { DeliveryEngine } from '../engine';
import { addAttemptJob } from './queue';

/** Worker engine hand-over: one graphile-worker job per delivery, in the outbox transaction. */
export const workerEngine: DeliveryEngine = {
  name: 'worker',
  transactional: true,
  async enqueue(tx, jobs) {
    for (const job of jobs) await addAttemptJob(tx, job);
  },
};
