// On a serverless host nothing lives between requests: no LISTEN, no relay in the background. So
// every writing request runs one relay pass (./relay.ts) after its response (Next's `after`), and
// the work it committed (deliveries, timer plans) reaches Inngest at once instead of at the next
// `relay-sweep` minute. A long-running server's relay or worker watches the rows itself.
import { after } from 'next/server';
import { settings } from '@/server/config/settings';
import { logger } from '@/server/log';

export function relayAfterResponse(method: string): void {
  if (method === 'GET' || method === 'HEAD' || !settings().SERVERLESS) return;
  after(async () => {
    try {
      const { relayPass } = await import('./relay');
      await relayPass();
    } catch (error) {
      logger().error({ err: error }, 'relay after response failed; the relay sweep will retry');
    }
  });
}
