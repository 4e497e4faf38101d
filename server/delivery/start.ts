// Starts the configured delivery engine inside the Next.js server process (from instrumentation.ts)
// and stops it on SIGTERM/SIGINT before exiting: the launcher sets NEXT_MANUAL_SIG_HANDLE=true, so
// shutting down is the app's job.
import { settings } from '@/server/config/settings';
import { logger } from '@/server/log';

const holder = globalThis as unknown as { __switchboardDelivery?: Promise<{ stop(): Promise<void> }> };

export function startDeliveryEngine(): Promise<{ stop(): Promise<void> }> {
  holder.__switchboardDelivery ??= (async () => {
    const engine = settings().DELIVERY_ENGINE;
    const running =
      engine === 'worker'
        ? await (await import('./worker/runner')).startDeliveryWorker()
        : await (await import('./inngest/relay-listener')).startRelayListener();
    logger().info({ engine }, 'delivery engine started');
    let stopping = false;
    const shutdown = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger().info({ signal }, 'stopping the delivery engine');
      const hardStop = setTimeout(() => process.exit(1), 15_000);
      hardStop.unref();
      running
        .stop()
        .catch((error) => logger().error({ err: error }, 'delivery engine did not stop cleanly'))
        .finally(() => process.exit(0));
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
    return running;
  })();
  return holder.__switchboardDelivery;
}
