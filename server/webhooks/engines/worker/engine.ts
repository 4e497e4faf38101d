// The worker engine: it runs inside the long-running server process and uses the delivery rows the
// outbox wrote as its queue (./queue.ts), woken by the hand-over's NOTIFY. It claims what it runs,
// so a sweep has nothing to pass on.
import type { DeliveryEngine } from '@/server/webhooks/engines/engine';
import { startDeliveryWorker } from './runner';

export const workerEngine: DeliveryEngine = {
  name: 'worker',
  start: () => startDeliveryWorker(),
  sweep: async () => 0,
};
