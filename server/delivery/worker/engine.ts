import type { DeliveryEngine } from '../engine';
import { addAttemptJobs } from './queue';

/** Worker engine hand-over: one graphile-worker job per delivery, added in the outbox transaction. */
export const workerEngine: DeliveryEngine = {
  name: 'worker',
  transactional: true,
  async enqueue(tx, jobs) {
    if (jobs.length > 0)
      await addAttemptJobs(
        tx,
        jobs.map((job) => ({ job })),
      );
  },
};
