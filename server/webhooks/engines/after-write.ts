import { after } from 'next/server';
import { settings } from '@/server/config/settings';
import { logger } from '@/server/log';
import { deliveryEngine } from './index';

/**
 * A long-running server's engine watches the hand-over itself (NOTIFY and timers). On serverless
 * hosts nothing lives between requests, so every writing request also runs one engine sweep after
 * its response (Next's `after`) instead of leaving its deliveries to the once-a-minute sweep job:
 * the Inngest relay sends what the request committed; the worker has nothing to pass on.
 */
export function relayOutboxAfterResponse(method: string): void {
  if (method === 'GET' || method === 'HEAD') return;
  // A long-running server's engine watches the hand-over itself: nothing to do after a response.
  if (!settings().SERVERLESS) return;
  after(async () => {
    try {
      await (await deliveryEngine()).sweep();
    } catch (error) {
      logger().error({ err: error }, 'delivery sweep after response failed; the sweep job will retry');
    }
  });
}
