import { after } from 'next/server';
import { settings } from '@/server/config/settings';
import { logger } from '@/server/log';

/**
 * With the Inngest engine the outbox is relayed to Inngest after commit. A long-running server
 * does that from its NOTIFY listener; on serverless hosts no listener lives between requests, so
 * every writing request also runs one relay pass after its response (Next's `after`), instead of
 * leaving its events to the once-a-minute sweep. The worker engine needs nothing here.
 */
export function relayOutboxAfterResponse(method: string): void {
  if (method === 'GET' || method === 'HEAD' || settings().DELIVERY_ENGINE !== 'inngest') return;
  after(async () => {
    try {
      const [{ relayOutbox }, { inngest }] = await Promise.all([
        import('./inngest/relay'),
        import('./inngest/client'),
      ]);
      await relayOutbox((requests) => inngest.send(requests));
    } catch (error) {
      logger().error({ err: error }, 'outbox relay after response failed; the sweep will retry');
    }
  });
}
