// Worker engine hand-over: the delivery rows written in the outbox transaction are the jobs, due at
// once (`next_attempt_at` = now); a NOTIFY wakes the workers when that transaction commits.
import type { DeliveryEngine } from '@/server/delivery/engine-interface';
import { notifyWorkersSql } from './queue';

export const workerEngine: DeliveryEngine = {
  name: 'worker',
  transactional: true,
  handOverSql: () => notifyWorkersSql(),
};
