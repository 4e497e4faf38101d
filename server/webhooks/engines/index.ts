// The one way into the delivery engines from outside server/webhooks/engines/ (besides Inngest's own
// route, app/api/inngest): picks the engine named by the DELIVERY_ENGINE setting and starts it. The
// interface lives in ./engine.ts, which the engines import, so no engine imports this module back.
import { settings } from '@/server/config/settings';
import { logger } from '@/server/log';
import type { DeliveryEngine, EngineName, RunningEngine } from './engine';

export type { DeliveryEngine, EngineName, RunningEngine } from './engine';

const engines: Partial<Record<EngineName, DeliveryEngine>> = {};

export async function deliveryEngine(): Promise<DeliveryEngine> {
  const name = settings().DELIVERY_ENGINE;
  // Imported lazily so only the configured engine's module (and what it imports) is ever loaded.
  engines[name] ??=
    name === 'worker'
      ? (await import('./worker/engine')).workerEngine
      : (await import('./inngest/engine')).inngestEngine;
  return engines[name];
}

const holder = globalThis as unknown as { __switchboardDelivery?: Promise<RunningEngine> };

/**
 * Starts the configured engine inside the Next.js server process (from instrumentation.ts) and stops
 * it on SIGTERM/SIGINT before exiting: the launcher sets NEXT_MANUAL_SIG_HANDLE=true, so shutting
 * down is the app's job.
 */
export function startDeliveryEngine(): Promise<RunningEngine> {
  holder.__switchboardDelivery ??= (async () => {
    const engine = await deliveryEngine();
    const running = await engine.start();
    logger().info({ engine: engine.name }, 'delivery engine started');
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
